package io.tollgate.instrumentation.jaxrs;

import java.lang.reflect.Method;
import java.util.List;

/**
 * Builds a refusal as a JAX-RS {@code Response} of one copy of the API ({@code javax.ws.rs} or
 * {@code jakarta.ws.rs}): {@code Response.status(s).entity(body).type(t).header(...).build()}, which
 * the implementation (RESTEasy, CXF) writes like any response its resource returned, with its
 * response filters, and which no {@code ExceptionMapper} sees.
 *
 * <p>By reflection, looked up once per copy of the API and only when the first refusal comes.
 */
public final class JaxRsResponses {

  private final Method status;
  private final Method entity;
  private final Method type;
  private final Method header;
  private final Method build;

  /** For the JAX-RS {@code Response} class given (the application's copy). */
  public JaxRsResponses(Class<?> response) throws ReflectiveOperationException {
    Class<?> builder = Class.forName(response.getName() + "$ResponseBuilder", false,
        response.getClassLoader());
    this.status = response.getMethod("status", int.class);
    this.entity = builder.getMethod("entity", Object.class);
    this.type = builder.getMethod("type", String.class);
    this.header = builder.getMethod("header", String.class, Object.class);
    this.build = builder.getMethod("build");
  }

  /** The refusal as a {@code Response}; {@code headers} are name and value pairs. */
  public Object response(int statusCode, List<String[]> headers, String contentType, byte[] body)
      throws ReflectiveOperationException {
    Object builder = status.invoke(null, statusCode);
    builder = entity.invoke(builder, (Object) body);
    builder = type.invoke(builder, contentType);
    for (String[] pair : headers) {
      builder = header.invoke(builder, pair[0], pair[1]);
    }
    return build.invoke(builder);
  }
}
