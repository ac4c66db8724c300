package io.tollgate.instrumentation.servlet;

import io.tollgate.http.HttpExchange;
import java.io.OutputStream;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** A servlet request and response, seen through {@link ServletApi}. */
public final class ServletExchange implements HttpExchange {

  private final ServletApi api;
  private final Object request;
  private final Object response;
  private String route;

  private ServletExchange(ServletApi api, Object request, Object response) {
    this.api = api;
    this.request = request;
    this.response = response;
  }

  /**
   * The exchange of a request the first time its original dispatch (not a forward, include, error
   * page or async re-dispatch) reaches an entry point that marks requests with {@code mark}; this
   * marks it. Null at every later such entry point of the same request (the filters after the
   * first, the servlet), and for requests that are not HTTP servlet requests; nothing is allocated
   * then.
   */
  public static ServletExchange firstTimeMarked(Object request, Object response, String mark) {
    ServletApi api = ServletApi.of(request);
    if (api == null) {
      return null;
    }
    try {
      if (!isRequestDispatch(api.getDispatcherType.invokeExact(request))
          || api.getAttribute.invokeExact(request, mark) != null) {
        return null;
      }
      api.setAttribute.invokeExact(request, mark, (Object) Boolean.TRUE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new ServletExchange(api, request, response);
  }

  private static boolean isRequestDispatch(Object dispatcherType) {
    return dispatcherType != null && "REQUEST".equals(dispatcherType.toString());
  }

  @Override
  public String method() {
    try {
      return (String) api.getMethod.invokeExact(request);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String rawPath() {
    TomcatRequestUri tomcat = api.tomcatUri;
    if (tomcat != null) {
      String uri = tomcat.of(request);
      if (uri != null) {
        return uri;
      }
    }
    try {
      return (String) api.getRequestUri.invokeExact(request);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String remoteAddress() {
    try {
      return (String) api.getRemoteAddr.invokeExact(request);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String header(String name) {
    try {
      return (String) api.getHeader.invokeExact(request, name);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public List<String> headerLines(String name) {
    try {
      Enumeration<?> values = (Enumeration<?>) api.getHeaders.invokeExact(request, name);
      if (values == null || !values.hasMoreElements()) {
        return Collections.emptyList();
      }
      List<String> lines = new ArrayList<>(2);
      while (values.hasMoreElements()) {
        lines.add(String.valueOf(values.nextElement()));
      }
      return lines;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String principalName() {
    try {
      Principal principal = (Principal) api.getUserPrincipal.invokeExact(request);
      return principal == null ? null : principal.getName();
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String parameter(String name) {
    try {
      return (String) api.getParameter.invokeExact(request, name);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String cookie(String name) {
    try {
      Object[] cookies = (Object[]) api.getCookies.invokeExact(request);
      if (cookies == null) {
        return null;
      }
      for (Object cookie : cookies) {
        if (name.equals((String) api.cookieName.invokeExact(cookie))) {
          return (String) api.cookieValue.invokeExact(cookie);
        }
      }
      return null;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String route() {
    return route;
  }

  /** Set by a framework entry point that knows the matched route template. */
  public void setRoute(String routeTemplate) {
    this.route = routeTemplate;
  }

  public Object attribute(String name) {
    try {
      return api.getAttribute.invokeExact(request, name);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public String contextPath() {
    try {
      return (String) api.getContextPath.invokeExact(request);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void setResponseHeader(String name, String value) {
    try {
      api.setHeader.invokeExact(response, name, value);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public String responseHeader(String name) {
    try {
      return (String) api.getResponseHeader.invokeExact(response, name);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Resets and writes the response directly, rather than {@code sendError}, which would dispatch
   * to the application's error page and lose our headers and body.
   */
  @Override
  public void writeResponse(int status, List<String[]> headers, String contentType, byte[] body) {
    try {
      if ((boolean) api.isCommitted.invokeExact(response)) {
        throw new IllegalStateException("the response was already committed");
      }
      api.reset.invokeExact(response);
      api.setStatus.invokeExact(response, status);
      for (String[] header : headers) {
        api.setHeader.invokeExact(response, header[0], header[1]);
      }
      api.setContentType.invokeExact(response, contentType);
      api.setContentLength.invokeExact(response, body.length);
      OutputStream out = (OutputStream) api.getOutputStream.invokeExact(response);
      out.write(body);
      api.flushBuffer.invokeExact(response);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Runs {@code action} once when this request is over: now, or, for an asynchronous request, when
   * it completes, fails or times out.
   */
  public void whenComplete(Runnable action) {
    boolean async = false;
    try {
      async = isAsyncStarted();
      if (async) {
        AsyncCompletion.register(request, api.namespace, action);
      }
    } catch (Exception e) {
      // Better to give back early than never: the permit must not leak.
      async = false;
    }
    if (!async) {
      action.run();
    }
  }

  public boolean isAsyncStarted() {
    try {
      return (boolean) api.isAsyncStarted.invokeExact(request);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) {
      return (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    return new IllegalStateException(t);
  }
}
