package io.tollgate.instrumentation.outbound.okhttp;

import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.outbound.OutboundSends;
import java.util.Arrays;
import java.util.List;

/**
 * OkHttp 3, 4 and 5, executed or enqueued, and what sends through it (Retrofit, Spring's {@code
 * OkHttp3ClientHttpRequestFactory}). The one method every call runs once: {@code
 * getResponseWithInterceptorChain} of its {@code RealCall} (Kotlin's internal name in 4 and 5).
 *
 * <p>An enqueued call is decided on the dispatcher's thread that runs it, where OkHttp does its
 * blocking I/O anyway: a paced call waits there, holding its place in the dispatcher's queue as a
 * slow partner would, never the app's thread that enqueued it; a failed one reaches the app's
 * {@code Callback.onFailure}.
 */
public final class OkHttpModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String REAL_CALL_WEAVER =
      "io.tollgate.instrumentation.outbound.okhttp.RealCallWeaver";

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Arrays.asList(
        EntryPointMethod.inClass("OkHttp", "okhttp3.internal.connection.RealCall",
            "getResponseWithInterceptorChain$okhttp", "()Lokhttp3/Response;",
            REAL_CALL_WEAVER),
        EntryPointMethod.inClass("OkHttp", "okhttp3.RealCall",
            "getResponseWithInterceptorChain", "()Lokhttp3/Response;", REAL_CALL_WEAVER));
  }

  /** An outbound client: its classes are loaded at the application's first call of it. */
  @Override
  public boolean handlerAtFirstCall() {
    return true;
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    return new OutboundSends(engine::outbound, new OkHttpCallsReader());
  }

  @Override
  public String requestName() {
    return "an OkHttp call";
  }
}
