package io.tollgate.instrumentation.spring;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.List;

/** Spring MVC 5 ({@code javax.servlet}) and 6+ ({@code jakarta.servlet}): its handler adapters. */
public final class SpringMvcModule implements FrameworkModule {

  @Override
  public List<EntryPointMethod> entryPoints() {
    return SpringMvcEntryPoints.all();
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new SpringHandlers(engine);
  }

  @Override
  public String requestName() {
    return "a Spring MVC request";
  }
}
