package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.outbound.OutboundSends;
import java.util.Arrays;
import java.util.List;

/**
 * Apache HttpClient 5 (classic), and what sends through it: Spring's {@code RestTemplate} and
 * {@code RestClient} on {@code HttpComponentsClientHttpRequestFactory} (Spring 6+). Its {@code
 * doExecute} in the client's two implementations: the builder's and the minimal one. Named classes
 * only, so a client that wraps another is not counted twice.
 */
public final class Apache5Module implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String APACHE5_EXECUTE_WEAVER =
      "io.tollgate.instrumentation.outbound.apache5.Apache5ExecuteWeaver";

  private static final String DO_EXECUTE =
      "(Lorg/apache/hc/core5/http/HttpHost;Lorg/apache/hc/core5/http/ClassicHttpRequest;"
          + "Lorg/apache/hc/core5/http/protocol/HttpContext;)"
          + "Lorg/apache/hc/client5/http/impl/classic/CloseableHttpResponse;";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        doExecuteOf("org.apache.hc.client5.http.impl.classic.InternalHttpClient"),
        doExecuteOf("org.apache.hc.client5.http.impl.classic.MinimalHttpClient"));
  }

  private static EntryPointMethod doExecuteOf(String client) {
    return EntryPointMethod.inClass("Apache HttpClient 5", client, "doExecute", DO_EXECUTE,
        APACHE5_EXECUTE_WEAVER);
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new OutboundSends(engine::outbound, new Apache5Requests());
  }

  @Override
  public String requestName() {
    return "an Apache HttpClient 5 call";
  }
}
