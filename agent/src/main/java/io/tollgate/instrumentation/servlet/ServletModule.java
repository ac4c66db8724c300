package io.tollgate.instrumentation.servlet;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.ArrayList;
import java.util.List;

/** The servlet API, {@code javax.servlet} and {@code jakarta.servlet}: every request's first entry. */
public final class ServletModule implements FrameworkModule {

  @Override
  public List<EntryPointMethod> entryPoints() {
    List<EntryPointMethod> methods = new ArrayList<>();
    for (ServletNamespace namespace : ServletNamespace.values()) {
      methods.addAll(ServletEntryPoints.of(namespace));
    }
    return methods;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new ServletRequests(engine);
  }

  @Override
  public String requestName() {
    return "a servlet request";
  }
}
