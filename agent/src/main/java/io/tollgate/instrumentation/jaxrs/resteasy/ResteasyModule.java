package io.tollgate.instrumentation.jaxrs.resteasy;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.Collections;
import java.util.List;

/**
 * RESTEasy (WildFly, JBoss EAP, Open Liberty...), {@code javax.ws.rs} or {@code jakarta.ws.rs},
 * behind its servlet dispatcher: {@code ResourceMethodInvoker.invokeOnTarget}, where the resource
 * method is matched and its post-matching request filters are about to run.
 */
public final class ResteasyModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String INVOKE_ON_TARGET_WEAVER =
      "io.tollgate.instrumentation.jaxrs.resteasy.InvokeOnTargetWeaver";

  static final String INVOKER = "org.jboss.resteasy.core.ResourceMethodInvoker";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Collections.singletonList(
        EntryPointMethod.inClass("RESTEasy (JAX-RS)", INVOKER, "invokeOnTarget",
            "(Lorg/jboss/resteasy/spi/HttpRequest;Lorg/jboss/resteasy/spi/HttpResponse;"
                + "Ljava/lang/Object;)Lorg/jboss/resteasy/specimpl/BuiltResponse;",
            INVOKE_ON_TARGET_WEAVER));
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new ResteasyInvocations(engine);
  }

  @Override
  public String requestName() {
    return "a RESTEasy request";
  }
}
