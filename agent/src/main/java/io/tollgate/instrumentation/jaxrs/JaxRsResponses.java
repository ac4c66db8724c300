package io.tollgate.instrumentation.jaxrs;

import io.tollgate.http.RefusalMessage;
import java.lang.reflect.Method;

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

  /** The refusal as a {@code Response}. */
  public Object response(RefusalMessage refusal) throws ReflectiveOperationException {
    Object builder = status.invoke(null, refusal.status());
    builder = entity.invoke(builder, (Object) refusal.body());
    builder = type.invoke(builder, refusal.contentType());
    for (int i = 0, n = refusal.headerCount(); i < n; i++) {
      builder = header.invoke(builder, refusal.headerName(i), refusal.headerValue(i));
    }
    return build.invoke(builder);
  }
}
