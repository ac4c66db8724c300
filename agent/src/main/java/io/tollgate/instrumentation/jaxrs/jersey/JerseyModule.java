package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.List;

/** Jersey 2 ({@code javax.ws.rs}) and 3+ ({@code jakarta.ws.rs}), in a servlet container or not. */
public final class JerseyModule implements FrameworkModule {

  @Override
  public List<EntryPointMethod> entryPoints() {
    return JerseyEntryPoints.all();
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new JerseyResources(engine);
  }

  @Override
  public String requestName() {
    return "a JAX-RS request";
  }
}
