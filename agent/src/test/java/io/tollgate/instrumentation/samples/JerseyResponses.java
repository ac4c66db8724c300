package io.tollgate.instrumentation.samples;

import java.net.URI;
import javax.ws.rs.core.Response;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;

/** Jersey's own responses, told apart in the events by their text entity. */
public final class JerseyResponses {

  private static final ContainerRequest REQUEST =
      new ContainerRequest(
          URI.create("http://localhost/"), URI.create("http://localhost/hello"), "GET", null,
          new MapPropertiesDelegate(), null);

  private JerseyResponses() {}

  /** A 200 response whose entity is {@code text}. */
  public static ContainerResponse of(String text) {
    return new ContainerResponse(REQUEST, Response.ok(text).build());
  }

  /** An object as the events show it: a Jersey response by its entity. */
  public static String describe(Object value) {
    return value instanceof ContainerResponse
        ? String.valueOf(((ContainerResponse) value).getEntity())
        : String.valueOf(value);
  }
}
