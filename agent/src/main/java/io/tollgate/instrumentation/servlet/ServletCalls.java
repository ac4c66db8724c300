package io.tollgate.instrumentation.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.security.Principal;
import java.util.Enumeration;

/**
 * The servlet API methods the engine calls, taking the request, response or cookie as
 * {@code Object}. The agent cannot compile against the application's servlet API (it would have
 * to pick {@code javax} or {@code jakarta}, and one of possibly several copies), so
 * {@link io.tollgate.instrumentation.DirectCalls} writes an implementation for each copy it
 * meets, whose methods call the servlet API directly ({@code ServletApi} says which method each
 * calls).
 *
 * <p>Public only because the generated class, in a class loader of its own, implements it.
 */
public interface ServletCalls {

  // HttpServletRequest
  String getMethod(Object request);

  String getRequestURI(Object request);

  String getRemoteAddr(Object request);

  /** The host the request was sent to, without the port: the container parses the Host header, or HTTP/2's :authority. */
  String getServerName(Object request);

  String getHeader(Object request, String name);

  Enumeration<?> getHeaders(Object request, String name);

  Principal getUserPrincipal(Object request);

  String getParameter(Object request, String name);

  String[] getParameterValues(Object request, String name);

  String getQueryString(Object request);

  /** The request's {@code getParts()}: parses a multipart body, once, as the container does. */
  java.util.Collection<?> getParts(Object request) throws Exception;

  String getContentType(Object request);

  Object[] getCookies(Object request);

  boolean isAsyncStarted(Object request);

  /** The request's {@code DispatcherType}. */
  Object getDispatcherType(Object request);

  Object getAttribute(Object request, String name);

  void setAttribute(Object request, String name, Object value);

  String getContextPath(Object request);

  // Cookie

  /** The cookie's {@code getName()}. */
  String getName(Object cookie);

  /** The cookie's {@code getValue()}. */
  String getValue(Object cookie);

  // HttpServletResponse

  void setHeader(Object response, String name, String value);

  /** The response's {@code getHeader(name)}. */
  String getResponseHeader(Object response, String name);

  boolean isCommitted(Object response);

  int getStatus(Object response);

  void reset(Object response);

  void setStatus(Object response, int status);

  void setContentType(Object response, String type);

  void setContentLength(Object response, int length);

  OutputStream getOutputStream(Object response) throws IOException;

  void flushBuffer(Object response) throws IOException;
}
