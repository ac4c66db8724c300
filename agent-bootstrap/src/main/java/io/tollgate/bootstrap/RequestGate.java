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
   * @return null when there is nothing to do at the end; {@link Refusal#WRITTEN} when the request
   *     was refused and its response written, so the entry point must be skipped; any other object
   *     is handed back to {@link #servletRequestEnded}.
   */
  Object servletRequestStarted(Object request, Object response);

  /** The entry point that started this request has returned, or thrown {@code thrown}. */
  void servletRequestEnded(Object scope, Throwable thrown);

  /**
   * Spring MVC is about to call a handler: the route template is known. Returns null, or
   * {@link Refusal#WRITTEN} to skip the handler.
   */
  Object springHandlerStarted(Object request, Object response);

  /**
   * Jersey is about to invoke a resource method (its {@code RequestProcessingContext} is given):
   * the route template is known. Returns null; a {@link Refusal} whose framework response the
   * woven method returns instead of running its code; or anything else, handed to
   * {@link #jaxrsResourceEnded} with the method's response.
   */
  Object jaxrsResourceStarted(Object processingContext) throws Exception;

  /** Jersey's resource method returned {@code response}; {@code decision} is what started gave. */
  void jaxrsResourceEnded(Object decision, Object response) throws Exception;

  /**
   * A server without the servlet API (Grizzly) starts handling a request: its own request object,
   * which knows the client's address.
   */
  void serverRequestStarted(Object serverRequest);

  /** The server's request handler has returned or thrown. */
  void serverRequestEnded();
}
