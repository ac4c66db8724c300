package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.instrumentation.EntryPointMethod;
import java.util.Collections;
import java.util.List;

/**
 * Jersey's resource method invoker: the same class in Jersey 2, {@code javax.ws.rs}, and Jersey 3
 * and later, {@code jakarta.ws.rs}.
 */
final class JerseyEntryPoints {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String RESOURCE_METHOD_INVOKER_WEAVER =
      "io.tollgate.instrumentation.jaxrs.jersey.ResourceMethodInvokerWeaver";

  /** The invoker. */
  static final String INVOKER = "org.glassfish.jersey.server.model.ResourceMethodInvoker";

  private JerseyEntryPoints() {}

  static List<EntryPointMethod> all() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Jersey (JAX-RS)", INVOKER, "apply",
            "(Lorg/glassfish/jersey/server/internal/process/RequestProcessingContext;)"
                + "Lorg/glassfish/jersey/server/ContainerResponse;",
            RESOURCE_METHOD_INVOKER_WEAVER));
  }
}
