package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.instrumentation.EntryPointMethod;
import java.util.Collections;
import java.util.List;

/**
 * Jersey's resource method invoker: the same class in Jersey 2, {@code javax.ws.rs}, and Jersey 3
 * and later, {@code jakarta.ws.rs}.
 */
final class JerseyEntryPoints {

  /** The invoker. */
  static final String INVOKER = "org.glassfish.jersey.server.model.ResourceMethodInvoker";

  private JerseyEntryPoints() {}

  static List<EntryPointMethod> all() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Jersey (JAX-RS)", INVOKER, "apply",
            "(Lorg/glassfish/jersey/server/internal/process/RequestProcessingContext;)"
                + "Lorg/glassfish/jersey/server/ContainerResponse;",
            ResourceMethodInvokerWeaver.class));
  }
}
