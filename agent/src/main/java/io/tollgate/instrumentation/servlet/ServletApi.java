package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.DirectCalls;

/**
 * What the engine knows of one request class: its servlet API ({@code javax} or {@code
 * jakarta}), the {@link ServletCalls} into that API, and, for Tomcat's own requests, a cheaper
 * way to their URI.
 */
final class ServletApi {

  private static final ClassValue<ServletApi> BY_REQUEST_CLASS =
      new ClassValue<ServletApi>() {
        @Override
        protected ServletApi computeValue(Class<?> requestClass) {
          return resolve(requestClass);
        }
      };

  /** One generated class per copy of the servlet API, shared by all its request classes. */
  private static final ClassValue<ServletCalls> BY_REQUEST_INTERFACE =
      new ClassValue<ServletCalls>() {
        @Override
        protected ServletCalls computeValue(Class<?> httpServletRequest) {
          String name = httpServletRequest.getName();
          String namespace = name.substring(0, name.indexOf(".http."));
          try {
            return callsFor(namespace, httpServletRequest.getClassLoader());
          } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException(
                "unexpected servlet API in " + httpServletRequest.getClassLoader() + ": " + e, e);
          }
        }
      };

  private static final String REQUEST = ".http.HttpServletRequest#";
  private static final String RESPONSE = ".http.HttpServletResponse#";
  private static final String COOKIE = ".http.Cookie#";

  /** Each method of {@link ServletCalls}: the servlet type (in the namespace) and method it calls. */
  private static final String[][] CALLS = {
    {"getMethod", REQUEST + "getMethod"},
    {"getRequestURI", REQUEST + "getRequestURI"},
    {"getRemoteAddr", REQUEST + "getRemoteAddr"},
    {"getServerName", REQUEST + "getServerName"},
    {"getHeader", REQUEST + "getHeader"},
    {"getHeaders", REQUEST + "getHeaders"},
    {"getUserPrincipal", REQUEST + "getUserPrincipal"},
    {"getParameter", REQUEST + "getParameter"},
    {"getParameterValues", REQUEST + "getParameterValues"},
    {"getQueryString", REQUEST + "getQueryString"},
    {"getParts", REQUEST + "getParts"},
    {"getContentType", REQUEST + "getContentType"},
    {"getCookies", REQUEST + "getCookies"},
    {"isAsyncStarted", REQUEST + "isAsyncStarted"},
    {"getDispatcherType", REQUEST + "getDispatcherType"},
    {"getAttribute", REQUEST + "getAttribute"},
    {"setAttribute", REQUEST + "setAttribute"},
    {"getContextPath", REQUEST + "getContextPath"},
    {"getName", COOKIE + "getName"},
    {"getValue", COOKIE + "getValue"},
    {"setHeader", RESPONSE + "setHeader"},
    {"getResponseHeader", RESPONSE + "getHeader"},
    {"isCommitted", RESPONSE + "isCommitted"},
    {"getStatus", RESPONSE + "getStatus"},
    {"reset", RESPONSE + "reset"},
    {"setStatus", RESPONSE + "setStatus"},
    {"setContentType", RESPONSE + "setContentType"},
    {"setContentLength", RESPONSE + "setContentLength"},
    {"getOutputStream", RESPONSE + "getOutputStream"},
    {"flushBuffer", RESPONSE + "flushBuffer"},
  };

  /**
   * The calls into the servlet API of {@code namespace} ({@code javax.servlet} or {@code
   * jakarta.servlet}) that {@code loader} sees.
   */
  static ServletCalls callsFor(String namespace, ClassLoader loader)
      throws ReflectiveOperationException {
    return DirectCalls.implementIn(namespace, ServletCalls.class, CALLS, loader);
  }

  /** The API for this request's class, or null when it is not an HTTP servlet request. */
  static ServletApi of(Object request) {
    return BY_REQUEST_CLASS.get(request.getClass());
  }

  final ServletCalls calls;
  /** {@code javax.servlet} or {@code jakarta.servlet}. */
  final String namespace;
  /** Tomcat's URI without {@code getRequestURI()}'s decoding, for its own requests; or null. */
  final TomcatRequestUri tomcatUri;

  private ServletApi(String namespace, Class<?> httpServletRequest, Class<?> requestClass) {
    this.namespace = namespace;
    this.calls = BY_REQUEST_INTERFACE.get(httpServletRequest);
    this.tomcatUri = TomcatRequestUri.forRequestClass(requestClass);
  }

  private static ServletApi resolve(Class<?> requestClass) {
    ClassLoader loader = requestClass.getClassLoader();
    for (String namespace : new String[] {"jakarta.servlet", "javax.servlet"}) {
      Class<?> httpRequest;
      try {
        httpRequest = Class.forName(namespace + ".http.HttpServletRequest", false, loader);
      } catch (ClassNotFoundException | LinkageError absent) {
        continue;
      }
      if (httpRequest.isAssignableFrom(requestClass)) {
        return new ServletApi(namespace, httpRequest, requestClass);
      }
    }
    return null;
  }
}
