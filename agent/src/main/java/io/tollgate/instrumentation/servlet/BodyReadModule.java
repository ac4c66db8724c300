package io.tollgate.instrumentation.servlet;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.ArrayList;
import java.util.List;

/**
 * The servlet containers' parameter and body readers: where rules keyed by a form field are
 * decided, when the application first reads its request (see {@link ServletBodyReads}).
 */
public final class BodyReadModule implements FrameworkModule {

  @Override
  public List<EntryPointMethod> entryPoints() {
    List<EntryPointMethod> methods = new ArrayList<>();
    for (ServletNamespace namespace : ServletNamespace.values()) {
      methods.addAll(BodyReadEntryPoints.of(namespace));
    }
    return methods;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new ServletBodyReads(engine);
  }

  @Override
  public String requestName() {
    return "a servlet request's body";
  }
}
