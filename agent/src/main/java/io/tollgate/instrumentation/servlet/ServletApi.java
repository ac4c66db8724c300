package io.tollgate.instrumentation.servlet;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Enumeration;

/**
 * The servlet methods the engine calls, resolved once per request class as method handles.
 *
 * <p>The agent's own class loader cannot see the application's servlet API (and must not: it
 * would have to pick {@code javax} or {@code jakarta}, and one of possibly several copies). So the
 * interfaces are looked up in the request's own class loader, and their methods bound as handles
 * that take {@code Object}: after warm-up they cost about what a direct interface call does.
 */
final class ServletApi {

  private static final ClassValue<ServletApi> BY_REQUEST_CLASS =
      new ClassValue<ServletApi>() {
        @Override
        protected ServletApi computeValue(Class<?> requestClass) {
          return resolve(requestClass);
        }
      };

  /** The API for this request's class, or null when it is not an HTTP servlet request. */
  static ServletApi of(Object request) {
    return BY_REQUEST_CLASS.get(request.getClass());
  }

  final MethodHandle getMethod;
  final MethodHandle getRequestUri;
  final MethodHandle getRemoteAddr;
  final MethodHandle getHeader;
  final MethodHandle getHeaders;
  final MethodHandle getUserPrincipal;
  final MethodHandle getParameter;
  final MethodHandle getCookies;
  final MethodHandle cookieName;
  final MethodHandle cookieValue;
  final MethodHandle isAsyncStarted;
  final MethodHandle getDispatcherType;
  final MethodHandle getAttribute;
  final MethodHandle setAttribute;
  final MethodHandle getContextPath;
  final MethodHandle setHeader;
  final MethodHandle addHeader;
  final MethodHandle getResponseHeader;
  final MethodHandle isCommitted;
  final MethodHandle reset;
  final MethodHandle setStatus;
  final MethodHandle setContentType;
  final MethodHandle setContentLength;
  final MethodHandle getOutputStream;
  final MethodHandle flushBuffer;

  /** {@code javax.servlet} or {@code jakarta.servlet}. */
  final String namespace;
  /** Tomcat's URI without {@code getRequestURI()}'s decoding, for its own requests; or null. */
  final TomcatRequestUri tomcatUri;

  private ServletApi(String ns, Class<?> requestClass) throws ReflectiveOperationException {
    this.namespace = ns;
    this.tomcatUri = TomcatRequestUri.forRequestClass(requestClass);
    ClassLoader loader = requestClass.getClassLoader();
    Class<?> request = Class.forName(ns + ".http.HttpServletRequest", false, loader);
    Class<?> response = Class.forName(ns + ".http.HttpServletResponse", false, loader);
    Class<?> cookie = Class.forName(ns + ".http.Cookie", false, loader);
    getMethod = handle(request, "getMethod", String.class);
    getRequestUri = handle(request, "getRequestURI", String.class);
    getRemoteAddr = handle(request, "getRemoteAddr", String.class);
    getHeader = handle(request, "getHeader", String.class, String.class);
    getHeaders = handle(request, "getHeaders", Enumeration.class, String.class);
    getUserPrincipal = handle(request, "getUserPrincipal", java.security.Principal.class);
    getParameter = handle(request, "getParameter", String.class, String.class);
    getCookies =
        MethodHandles.publicLookup()
            .findVirtual(request, "getCookies", MethodType.methodType(java.lang.reflect.Array.newInstance(cookie, 0).getClass()))
            .asType(MethodType.methodType(Object[].class, Object.class));
    cookieName = handle(cookie, "getName", String.class);
    cookieValue = handle(cookie, "getValue", String.class);
    isAsyncStarted = handle(request, "isAsyncStarted", boolean.class);
    getDispatcherType =
        MethodHandles.publicLookup()
            .unreflect(request.getMethod("getDispatcherType"))
            .asType(MethodType.methodType(Object.class, Object.class));
    getAttribute = handle(request, "getAttribute", Object.class, String.class);
    setAttribute = handle(request, "setAttribute", void.class, String.class, Object.class);
    getContextPath = handle(request, "getContextPath", String.class);
    setHeader = handle(response, "setHeader", void.class, String.class, String.class);
    addHeader = handle(response, "addHeader", void.class, String.class, String.class);
    getResponseHeader = handle(response, "getHeader", String.class, String.class);
    isCommitted = handle(response, "isCommitted", boolean.class);
    reset = handle(response, "reset", void.class);
    setStatus = handle(response, "setStatus", void.class, int.class);
    setContentType = handle(response, "setContentType", void.class, String.class);
    setContentLength = handle(response, "setContentLength", void.class, int.class);
    // Declared to return ServletOutputStream, an OutputStream: taken by reflection, like
    // getDispatcherType, rather than by its namespace's exact return type.
    getOutputStream =
        MethodHandles.publicLookup()
            .unreflect(response.getMethod("getOutputStream"))
            .asType(MethodType.methodType(java.io.OutputStream.class, Object.class));
    flushBuffer = handle(response, "flushBuffer", void.class);
  }

  private static MethodHandle handle(
      Class<?> owner, String name, Class<?> returnType, Class<?>... parameters)
      throws ReflectiveOperationException {
    MethodHandle handle =
        MethodHandles.publicLookup()
            .findVirtual(owner, name, MethodType.methodType(returnType, parameters));
    MethodType erased = MethodType.methodType(returnType, parameters).insertParameterTypes(0, Object.class);
    return handle.asType(erased);
  }

  private static ServletApi resolve(Class<?> requestClass) {
    ClassLoader loader = requestClass.getClassLoader();
    for (String ns : new String[] {"jakarta.servlet", "javax.servlet"}) {
      try {
        Class<?> httpRequest = Class.forName(ns + ".http.HttpServletRequest", false, loader);
        if (httpRequest.isAssignableFrom(requestClass)) {
          return new ServletApi(ns, requestClass);
        }
      } catch (ClassNotFoundException | LinkageError absent) {
        // Not this namespace.
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("unexpected servlet API in " + loader, e);
      }
    }
    return null;
  }
}
