package io.tollgate.instrumentation.jaxrs.jersey;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;

/**
 * Builds a refusal as Jersey's own {@code ContainerResponse}, which the woven resource method
 * invoker returns in place of the resource's: {@code new ContainerResponse(request,
 * Response.status(s).entity(body).type(t).header(...).build())}.
 *
 * <p>By reflection, unlike {@link JerseyCalls}: a static factory and a constructor, called only on
 * a refusal. Everything is looked up once per copy of Jersey, so a flood of refusals costs no
 * lookups.
 */
public final class JerseyRefusals {

  private final Constructor<?> containerResponse;
  private final Method status;
  private final Method entity;
  private final Method type;
  private final Method header;
  private final Method build;

  JerseyRefusals(ClassLoader loader, String namespace) throws ReflectiveOperationException {
    Class<?> response = Class.forName(namespace + ".core.Response", false, loader);
    Class<?> builder = Class.forName(namespace + ".core.Response$ResponseBuilder", false, loader);
    Class<?> request = Class.forName(JerseyApi.CONTAINER_REQUEST, false, loader);
    this.containerResponse =
        Class.forName(JerseyApi.CONTAINER_RESPONSE, false, loader).getConstructor(request, response);
    this.status = response.getMethod("status", int.class);
    this.entity = builder.getMethod("entity", Object.class);
    this.type = builder.getMethod("type", String.class);
    this.header = builder.getMethod("header", String.class, Object.class);
    this.build = builder.getMethod("build");
  }

  /** The refusal for {@code containerRequest}; {@code headers} are names and values alternating. */
  public Object containerResponse(
      Object containerRequest, int statusCode, String[] headers, String contentType, byte[] body)
      throws ReflectiveOperationException {
    Object builder = status.invoke(null, statusCode);
    builder = entity.invoke(builder, (Object) body);
    builder = type.invoke(builder, contentType);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder = header.invoke(builder, headers[i], headers[i + 1]);
    }
    return containerResponse.newInstance(containerRequest, build.invoke(builder));
  }
}
