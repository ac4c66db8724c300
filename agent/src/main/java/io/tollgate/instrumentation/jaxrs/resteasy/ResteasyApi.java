package io.tollgate.instrumentation.jaxrs.resteasy;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.jaxrs.JaxRsResponses;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;

/**
 * What the engine calls in one copy of RESTEasy, found by reflection from the class of its woven
 * invoker, once: the invoker's resource method (whose full path template RESTEasy keeps), the
 * request's base URI (context path and servlet mapping), the servlet request and response that
 * RESTEasy's servlet request ({@code HttpServletInputMessage}) wraps, and how to make a refusal as
 * RESTEasy's own response.
 */
final class ResteasyApi {

  private static final ApiPerClass<ResteasyApi> BY_INVOKER_CLASS =
      new ApiPerClass<ResteasyApi>("RESTEasy") {
        @Override
        protected ResteasyApi match(Class<?> invoker) throws ReflectiveOperationException {
          return new ResteasyApi(invoker);
        }
      };

  private final Field resourceMethod;
  private final Method fullPath;
  private final Method uriInfo;
  private final Method baseUri;
  /** RESTEasy's request behind its servlet dispatcher, and its servlet request and response. */
  private final Class<?> servletMessage;
  private final Field servletRequest;
  private final Field servletResponse;
  private final Class<?> response;
  private volatile JaxRsResponses refusals;

  private ResteasyApi(Class<?> woven) throws ReflectiveOperationException {
    ClassLoader loader = woven.getClassLoader();
    Class<?> invoker = Class.forName(ResteasyModule.INVOKER, false, loader);
    resourceMethod = invoker.getDeclaredField("method");
    resourceMethod.setAccessible(true);
    fullPath = Class.forName("org.jboss.resteasy.spi.metadata.ResourceLocator", false, loader)
        .getMethod("getFullpath");
    Class<?> request = Class.forName("org.jboss.resteasy.spi.HttpRequest", false, loader);
    uriInfo = request.getMethod("getUri");
    baseUri = uriInfo.getReturnType().getMethod("getBaseUri");
    servletMessage = Class.forName(
        "org.jboss.resteasy.plugins.server.servlet.HttpServletInputMessage", false, loader);
    servletRequest = servletMessage.getDeclaredField("request");
    servletRequest.setAccessible(true);
    servletResponse = servletMessage.getDeclaredField("servletResponse");
    servletResponse.setAccessible(true);
    // the JAX-RS namespace RESTEasy was built against: its BuiltResponse is a Response
    Class<?> built = Class.forName("org.jboss.resteasy.specimpl.BuiltResponse", false, loader);
    while (built != null && !built.getName().endsWith(".ws.rs.core.Response")) {
      built = built.getSuperclass();
    }
    if (built == null) {
      throw new ClassNotFoundException("RESTEasy's BuiltResponse is no JAX-RS Response");
    }
    response = built;
  }

  static ResteasyApi of(Object invoker) {
    return BY_INVOKER_CLASS.get(invoker.getClass());
  }

  /** The resource method's full path template: its class's {@code @Path} and its own. */
  String fullPath(Object invoker) throws ReflectiveOperationException {
    Object method = resourceMethod.get(invoker);
    return method == null ? null : (String) fullPath.invoke(method);
  }

  /** The request's base URI: where the application's paths start. */
  URI baseUri(Object request) throws ReflectiveOperationException {
    return (URI) baseUri.invoke(uriInfo.invoke(request));
  }

  /** The servlet request behind RESTEasy's {@code request}, or null (no servlet container). */
  Object servletRequest(Object request) throws ReflectiveOperationException {
    return servletMessage.isInstance(request) ? servletRequest.get(request) : null;
  }

  Object servletResponse(Object request) throws ReflectiveOperationException {
    return servletMessage.isInstance(request) ? servletResponse.get(request) : null;
  }

  JaxRsResponses refusals() throws ReflectiveOperationException {
    JaxRsResponses built = refusals;
    if (built == null) {
      built = new JaxRsResponses(response);
      refusals = built;
    }
    return built;
  }
}
