package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;

/**
 * What the engine knows of one request class: its servlet API ({@code javax} or {@code
 * jakarta}), the {@link ServletCalls} into that API, and, for Tomcat's own requests, cheaper
 * ways to their URI, to their responses' headers and to marking them.
 */
final class ServletApi {

  private static final ApiPerClass<ServletApi> BY_REQUEST_CLASS =
      new ApiPerClass<ServletApi>("the servlet API") {
        @Override
        protected ServletApi match(Class<?> requestClass) {
          return resolve(requestClass);
        }
      };

  /** One generated class per copy of the servlet API, shared by all its request classes. */
  private static final ApiPerClass<ServletCalls> BY_REQUEST_INTERFACE =
      new ApiPerClass<ServletCalls>("the servlet API") {
        @Override
        protected ServletCalls match(Class<?> httpServletRequest)
            throws ReflectiveOperationException {
          String name = httpServletRequest.getName();
          String namespace = name.substring(0, name.indexOf(".http."));
          return callsFor(namespace, httpServletRequest.getClassLoader());
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

  /**
   * The API for this request's class, or null when it is not an HTTP servlet request (or its
   * servlet API did not match, logged once).
   */
  static ServletApi of(Object request) {
    return BY_REQUEST_CLASS.get(request.getClass());
  }

  final ServletCalls calls;
  /** {@code javax.servlet} or {@code jakarta.servlet}. */
  final String namespace;
  /** Tomcat's URI without {@code getRequestURI()}'s decoding, for its own requests; or null. */
  final TomcatRequestUri tomcatUri;
  /** Tomcat's response headers written as bytes, for its own requests' responses; or null. */
  final TomcatResponseHeaders tomcatHeaders;
  /** Marks that Tomcat's attribute listeners do not hear of, for its own requests; or null. */
  final TomcatRequestNotes tomcatNotes;

  private ServletApi(String namespace, ServletCalls calls, Class<?> requestClass) {
    this.namespace = namespace;
    this.calls = calls;
    this.tomcatUri = TomcatRequestUri.forRequestClass(requestClass);
    this.tomcatHeaders = TomcatResponseHeaders.forRequestClass(requestClass);
    this.tomcatNotes = TomcatRequestNotes.forRequestClass(requestClass);
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
        ServletCalls calls = BY_REQUEST_INTERFACE.get(httpRequest);
        return calls == null ? null : new ServletApi(namespace, calls, requestClass);
      }
    }
    return null;
  }
}
