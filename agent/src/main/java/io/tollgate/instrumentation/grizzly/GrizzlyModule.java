package io.tollgate.instrumentation.grizzly;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.Collections;
import java.util.List;

/**
 * Jersey's Grizzly container, a server without the servlet API: its request knows the client's
 * address, which the JAX-RS handler that runs on the same thread has no other way to learn; and
 * its end is when what the request held is given back.
 */
public final class GrizzlyModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String GRIZZLY_CONTAINER_WEAVER =
      "io.tollgate.instrumentation.grizzly.GrizzlyContainerWeaver";

  /** Grizzly's container (also read by {@code EntryPointClassFiles}). */
  public static final String GRIZZLY_CONTAINER =
      "org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Jersey on Grizzly", GRIZZLY_CONTAINER, "service",
            "(Lorg/glassfish/grizzly/http/server/Request;"
                + "Lorg/glassfish/grizzly/http/server/Response;)V",
            GRIZZLY_CONTAINER_WEAVER));
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new EntryPointHandler() {
      @Override
      public Object enter(Object serverRequest, Object unused) {
        engine.serverRequestStarted(GrizzlyRequests.remoteAddress(serverRequest));
        return serverRequest; // the scope, so that the end is called with it
      }

      @Override
      public void exit(Object serverRequest, Throwable thrown) {
        engine.serverRequestEnded(GrizzlyRequests.responseStatus(serverRequest), thrown);
      }
    };
  }

  @Override
  public String requestName() {
    return "a Grizzly request";
  }
}
