package io.tollgate.instrumentation.container.jetty;

/**
 * The Jetty methods the engine calls, implemented for each Jetty it meets by {@link
 * io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in a class
 * loader of its own, implements it.
 */
public interface JettyCalls {

  /** {@code org.eclipse.jetty.server.HttpChannel.getRequest()}. */
  Object getRequest(Object channel);

  /** {@code HttpChannel.getResponse()}. */
  Object getResponse(Object channel);

  /** {@code org.eclipse.jetty.server.Request.isHandled()}: whether a handler took the request. */
  boolean isHandled(Object request);
}
