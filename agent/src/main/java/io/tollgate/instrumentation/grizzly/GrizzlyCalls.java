package io.tollgate.instrumentation.grizzly;

/**
 * The Grizzly method the engine calls, implemented for each Grizzly it meets by {@link
 * io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in a class
 * loader of its own, implements it.
 */
public interface GrizzlyCalls {

  /** {@code org.glassfish.grizzly.http.server.Request.getRemoteAddr()}. */
  String getRemoteAddr(Object request);

  /** {@code Request.getResponse()}. */
  Object getResponse(Object request);

  /** {@code org.glassfish.grizzly.http.server.Response.getStatus()}. */
  int getStatus(Object response);
}
