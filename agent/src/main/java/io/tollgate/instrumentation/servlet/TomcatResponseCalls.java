package io.tollgate.instrumentation.servlet;

/**
 * The Tomcat methods that {@link TomcatResponseHeaders} calls, implemented for each Tomcat it
 * meets by {@link io.tollgate.instrumentation.DirectCalls}, as {@link TomcatCalls} is for the
 * request URI. Public only because the generated class, in a class loader of its own, implements
 * it.
 */
public interface TomcatResponseCalls {

  /** {@code org.apache.catalina.connector.Response.getCoyoteResponse()}. */
  Object getCoyoteResponse(Object response);

  /** {@code org.apache.coyote.Response.isCommitted()}. */
  boolean isCommitted(Object coyoteResponse);

  /** {@code org.apache.coyote.Response.getMimeHeaders()}. */
  Object getMimeHeaders(Object coyoteResponse);

  /** {@code MimeHeaders.getValue(name)}: the first header of that name (any case), or null. */
  Object getValue(Object headers, String name);

  /** {@code MimeHeaders.addValue(name)}: a new header of that name; its value's MessageBytes. */
  Object addValue(Object headers, String name);

  /** {@code MimeHeaders.size()}. */
  int size(Object headers);

  /** {@code MimeHeaders.getName(i)}: the i-th header's name, as MessageBytes. */
  Object getName(Object headers, int i);

  /** {@code MessageBytes.getByteChunk()}. */
  Object getByteChunk(Object messageBytes);

  /** {@code MessageBytes.setBytes(bytes, start, length)}. */
  void setBytes(Object messageBytes, byte[] bytes, int start, int length);

  /** {@code ByteChunk.allocate(initial, limit)}: a buffer of at least {@code initial} bytes. */
  void allocate(Object byteChunk, int initial, int limit);

  /** {@code ByteChunk.getBuffer()}. */
  byte[] getBuffer(Object byteChunk);
}
