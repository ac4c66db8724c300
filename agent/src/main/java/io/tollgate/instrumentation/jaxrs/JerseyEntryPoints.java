package io.tollgate.instrumentation.jaxrs;

import io.tollgate.instrumentation.EntryPointMethod;
import java.util.Arrays;
import java.util.List;

/**
 * Jersey's resource method invoker (the same class in Jersey 2, {@code javax.ws.rs}, and Jersey 3
 * and later, {@code jakarta.ws.rs}), and Grizzly's container when Jersey runs on it without a
 * servlet container.
 */
public final class JerseyEntryPoints {

  /** The invoker (also read by {@code EntryPointClassFiles}). */
  public static final String INVOKER = "org.glassfish.jersey.server.model.ResourceMethodInvoker";
  /** Grizzly's container (also read by {@code EntryPointClassFiles}). */
  public static final String GRIZZLY_CONTAINER =
      "org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer";

  private JerseyEntryPoints() {}

  public static List<EntryPointMethod> all() {
    return Arrays.asList(
        EntryPointMethod.inClass("Jersey (JAX-RS)", INVOKER, "apply",
            "(Lorg/glassfish/jersey/server/internal/process/RequestProcessingContext;)"
                + "Lorg/glassfish/jersey/server/ContainerResponse;",
            ResourceMethodInvokerWeaver.class),
        EntryPointMethod.inClass("Jersey on Grizzly", GRIZZLY_CONTAINER, "service",
            "(Lorg/glassfish/grizzly/http/server/Request;"
                + "Lorg/glassfish/grizzly/http/server/Response;)V",
            GrizzlyContainerWeaver.class));
  }
}
