package io.tollgate.instrumentation.jaxrs.cxf;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import java.util.Collections;
import java.util.List;

/**
 * Apache CXF's JAX-RS (TomEE, and applications with CXF's servlet), {@code javax.ws.rs} (CXF 3)
 * or {@code jakarta.ws.rs} (CXF 4): {@code JAXRSInvoker.invoke(Exchange, Object)}, called once
 * the resource method is matched ({@code OperationResourceInfo}) and its request filters have
 * run.
 */
public final class CxfModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String JAXRS_INVOKER_WEAVER =
      "io.tollgate.instrumentation.jaxrs.cxf.JaxrsInvokerWeaver";

  static final String INVOKER = "org.apache.cxf.jaxrs.JAXRSInvoker";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Apache CXF (JAX-RS)", INVOKER, "invoke",
            "(Lorg/apache/cxf/message/Exchange;Ljava/lang/Object;)Ljava/lang/Object;",
            JAXRS_INVOKER_WEAVER));
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new CxfInvocations(engine);
  }

  @Override
  public String requestName() {
    return "a CXF JAX-RS request";
  }
}
