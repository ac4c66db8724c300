package io.tollgate.instrumentation.outbound.apache4;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.outbound.OutboundSends;
import java.util.Arrays;
import java.util.List;

/**
 * Apache HttpClient 4.3 to 4.5 (classic), and what sends through it: Spring's {@code
 * RestTemplate} on {@code HttpComponentsClientHttpRequestFactory} (Spring 5), RESTEasy's JAX-RS
 * client. Its {@code doExecute} in each of the client's three implementations: the builder's
 * ({@code HttpClients.custom()...build()}), the minimal one, and the deprecated {@code
 * DefaultHttpClient}'s base. Named classes only, so a client that wraps another (a subclass of the
 * app's that delegates) is not counted twice.
 */
public final class Apache4Module implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String APACHE4_EXECUTE_WEAVER =
      "io.tollgate.instrumentation.outbound.apache4.Apache4ExecuteWeaver";

  private static final String DO_EXECUTE =
      "(Lorg/apache/http/HttpHost;Lorg/apache/http/HttpRequest;"
          + "Lorg/apache/http/protocol/HttpContext;)"
          + "Lorg/apache/http/client/methods/CloseableHttpResponse;";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        doExecuteOf("org.apache.http.impl.client.InternalHttpClient"),
        doExecuteOf("org.apache.http.impl.client.MinimalHttpClient"),
        doExecuteOf("org.apache.http.impl.client.AbstractHttpClient"));
  }

  private static EntryPointMethod doExecuteOf(String client) {
    return EntryPointMethod.inClass("Apache HttpClient 4", client, "doExecute", DO_EXECUTE,
        APACHE4_EXECUTE_WEAVER);
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new OutboundSends(engine::outbound, new Apache4Requests());
  }

  @Override
  public String requestName() {
    return "an Apache HttpClient 4 call";
  }
}
