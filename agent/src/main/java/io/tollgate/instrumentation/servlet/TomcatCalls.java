package io.tollgate.instrumentation.servlet;

import java.nio.charset.Charset;

/**
 * The Tomcat methods that {@link TomcatRequestUri} calls, implemented for each Tomcat it meets by
 * {@link io.tollgate.instrumentation.DirectCalls}, as {@link ServletCalls} is for the servlet API.
 * Public only because the generated class, in a class loader of its own, implements it.
 */
public interface TomcatCalls {

  /** {@code org.apache.catalina.connector.Request.getCoyoteRequest()}. */
  Object getCoyoteRequest(Object request);

  /** {@code org.apache.coyote.Request.requestURI()}: the URI's {@code MessageBytes}. */
  Object requestURI(Object coyoteRequest);

  int getType(Object messageBytes);

  /** {@code MessageBytes.getByteChunk()}. */
  Object getByteChunk(Object messageBytes);

  byte[] getBuffer(Object byteChunk);

  int getStart(Object byteChunk);

  int getLength(Object byteChunk);

  Charset getCharset(Object byteChunk);
}
