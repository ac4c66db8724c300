package io.tollgate.bootstrap;

/**
 * What the bridge hands a request to: the isolated agent, which dispatches each call to the
 * framework module that registered the entry point.
 *
 * <p>Only JDK types cross this line, because the bridge lives on the bootstrap class loader and
 * must not know any framework. The entry point is a number the agent gave it when it wove it;
 * requests, responses and whatever else the woven method holds travel as {@code Object}. So a new
 * framework changes nothing here.
 */
public interface RequestGate {

  /**
   * An entry point's method starts, given the objects its woven code passes (its arguments, mostly;
   * null where it passes fewer).
   *
   * @return null when there is nothing to do at the end; a {@link Refusal} when the request was
   *     refused, so that the woven method is skipped; any other object is the scope handed back to
   *     {@link #exit} or {@link #returned}.
   */
  Object enter(int entryPoint, Object first, Object second) throws Exception;

  /** The method that {@link #enter} started has returned, or thrown {@code thrown}. */
  void exit(int entryPoint, Object scope, Throwable thrown) throws Exception;

  /**
   * The method that {@link #enter} started is about to return {@code result}: returns what it
   * returns instead ({@code result} itself, with headers added, in most cases).
   */
  Object returned(int entryPoint, Object scope, Object result) throws Exception;
}
