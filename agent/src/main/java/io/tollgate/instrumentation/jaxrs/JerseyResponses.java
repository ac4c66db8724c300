package io.tollgate.instrumentation.jaxrs;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/**
 * Builds and amends Jersey's {@code ContainerResponse} by reflection, in the application's class
 * loader: whichever of {@code javax.ws.rs} (Jersey 2) or {@code jakarta.ws.rs} (Jersey 3+) its
 * constructor takes.
 */
public final class JerseyResponses {

  private static final String CONTAINER_RESPONSE = "org.glassfish.jersey.server.ContainerResponse";

  private JerseyResponses() {}

  /** The request of a {@code RequestProcessingContext}. */
  public static Object requestOf(Object processingContext) throws ReflectiveOperationException {
    Method request = processingContext.getClass().getMethod("request");
    request.setAccessible(true);
    return request.invoke(processingContext);
  }

  /** {@code new ContainerResponse(request, Response.status(s).entity(body).type(t).header(...))}. */
  public static Object containerResponse(
      Object containerRequest, int status, String[] headers, String contentType, byte[] body)
      throws ReflectiveOperationException {
    ClassLoader loader = containerRequest.getClass().getClassLoader();
    Class<?> containerResponse = Class.forName(CONTAINER_RESPONSE, false, loader);
    for (Constructor<?> constructor : containerResponse.getConstructors()) {
      Class<?>[] parameters = constructor.getParameterTypes();
      if (parameters.length == 2 && parameters[0].isInstance(containerRequest)) {
        Object response = jaxrsResponse(parameters[1], status, headers, contentType, body);
        return constructor.newInstance(containerRequest, response);
      }
    }
    throw new IllegalStateException("no ContainerResponse(ContainerRequest, Response) in " + loader);
  }

  private static Object jaxrsResponse(
      Class<?> responseType, int status, String[] headers, String contentType, byte[] body)
      throws ReflectiveOperationException {
    Object builder = responseType.getMethod("status", int.class).invoke(null, status);
    Class<?> builderType = responseType.getMethod("status", int.class).getReturnType();
    builder = builderType.getMethod("entity", Object.class).invoke(builder, (Object) body);
    builder = builderType.getMethod("type", String.class).invoke(builder, contentType);
    Method header = builderType.getMethod("header", String.class, Object.class);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder = header.invoke(builder, headers[i], headers[i + 1]);
    }
    return builderType.getMethod("build").invoke(builder);
  }

  /** Sets headers (names and values alternating) on a {@code ContainerResponse}. */
  public static void setHeaders(Object containerResponse, String[] headers)
      throws ReflectiveOperationException {
    Object map = containerResponse.getClass().getMethod("getHeaders").invoke(containerResponse);
    Method putSingle = null;
    for (Class<?> type : map.getClass().getInterfaces()) {
      try {
        putSingle = type.getMethod("putSingle", Object.class, Object.class);
        break;
      } catch (NoSuchMethodException notThisOne) {
        // Keep looking: the MultivaluedMap interface has it.
      }
    }
    if (putSingle == null) {
      putSingle = map.getClass().getMethod("putSingle", Object.class, Object.class);
    }
    for (int i = 0; i + 1 < headers.length; i += 2) {
      putSingle.invoke(map, headers[i], headers[i + 1]);
    }
  }
}
