package io.tollgate.instrumentation;

/**
 * What one framework module does when its woven entry points run (see {@link
 * io.tollgate.bootstrap.RequestGate}, whose calls {@link EntryPointDispatch} hands here). Any
 * exception is caught by the dispatch, reported, and lets the request pass.
 */
public interface EntryPointHandler {

  /**
   * The woven method starts, given what its woven code passes.
   *
   * @return null, a {@link io.tollgate.bootstrap.Refusal} to skip the method, or a scope for the
   *     end
   */
  Object enter(Object first, Object second) throws Exception;

  /** The woven method returned, or threw {@code thrown}; {@code scope} is what enter gave. */
  default void exit(Object scope, Throwable thrown) throws Exception {}

  /** The woven method returns {@code result}: what it returns instead. */
  default Object returned(Object scope, Object result) throws Exception {
    return result;
  }
}
