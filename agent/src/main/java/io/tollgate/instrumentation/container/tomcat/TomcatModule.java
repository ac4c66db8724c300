package io.tollgate.instrumentation.container.tomcat;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.container.ContainerRequests;
import java.util.Collections;
import java.util.List;

/**
 * Tomcat's own request entry, {@code StandardHostValve.invoke(Request, Response)}, in Tomcat 9
 * ({@code javax}) to 11 ({@code jakarta}), embedded or standalone: every request of a host passes
 * it, whether a servlet then serves it or Tomcat answers itself (a path that no servlet is mapped
 * to on an embedded Tomcat without a default servlet, a context's valve).
 *
 * <p>Why the host valve and not the connector's adapter: by then the engine's and host's valves
 * (a {@code RemoteIpValve} among them) have run, so the client address is the one the servlet sees,
 * and the context is chosen, so the request's context path is known. Its request and response
 * are Tomcat's connector objects, which implement the servlet API of their Tomcat.
 */
public final class TomcatModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String REQUEST_ENTRY_WEAVER =
      "io.tollgate.instrumentation.RequestEntryWeaver";

  /** Tomcat's host valve (also read by {@code EntryPointClassFiles}). */
  public static final String HOST_VALVE = "org.apache.catalina.core.StandardHostValve";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Tomcat", HOST_VALVE, "invoke",
            "(Lorg/apache/catalina/connector/Request;Lorg/apache/catalina/connector/Response;)V",
            REQUEST_ENTRY_WEAVER));
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    ContainerRequests requests = new ContainerRequests(engine);
    return new EntryPointHandler() {
      @Override
      public Object enter(Object request, Object response) {
        return requests.started(request, response);
      }

      @Override
      public void exit(Object scope, Throwable thrown) {
        requests.ended(scope, thrown);
      }
    };
  }

  @Override
  public String requestName() {
    return "a Tomcat request";
  }
}
