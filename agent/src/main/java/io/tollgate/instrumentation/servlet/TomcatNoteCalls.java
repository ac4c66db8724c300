package io.tollgate.instrumentation.servlet;

/**
 * The Tomcat methods that {@link TomcatRequestNotes} calls, implemented for each Tomcat it meets
 * by {@link io.tollgate.instrumentation.DirectCalls}. Public only because the generated class, in
 * a class loader of its own, implements it.
 */
public interface TomcatNoteCalls {

  /** {@code org.apache.catalina.connector.Request.getNote(String)}. */
  Object getNote(Object request, String name);

  /** {@code org.apache.catalina.connector.Request.setNote(String, Object)}. */
  void setNote(Object request, String name, Object value);
}
