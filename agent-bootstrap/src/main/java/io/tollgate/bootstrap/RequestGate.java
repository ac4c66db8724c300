package io.tollgate.bootstrap;

/**
 * What the bridge hands a request to: the isolated agent's decision engine.
 *
 * <p>Only JDK types cross this line, because the bridge lives on the bootstrap class loader and
 * must not know any framework. Requests and responses travel as {@code Object}.
 */
public interface RequestGate {

  /**
   * A servlet request reached its first Tollgate entry point.
   *
   * @return null when there is nothing to do at the end; {@link Refusal#INSTANCE} when the request
   *     was refused and its response written, so the entry point must be skipped; any other object
   *     is handed back to {@link #servletRequestEnded}.
   */
  Object servletRequestStarted(Object request, Object response);

  /** The entry point that started this request has returned or thrown. */
  void servletRequestEnded(Object scope, Object request, Object response, Throwable thrown);
}
