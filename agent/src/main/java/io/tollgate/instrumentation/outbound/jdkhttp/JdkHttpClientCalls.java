package io.tollgate.instrumentation.outbound.jdkhttp;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.outbound.OutboundRefusals;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The JDK client's {@code send} and {@code sendAsync}: decides the call before it goes out (pacing
 * on the calling thread), and shows the partner's answer to the rules. A refused {@code send}
 * throws {@link io.tollgate.bootstrap.OutboundCallRefused}, an {@code IOException} as the method
 * declares; a refused {@code sendAsync} returns a future that fails with it as the client's own
 * failures arrive, when waited for or soon after ({@link RefusedFuture}). For {@code sendAsync} the decision
 * (and its wait) is made before the future is returned: the caller's thread waits, never longer
 * than the rule's {@code max-wait}.
 */
final class JdkHttpClientCalls implements EntryPointHandler {

  static final String SEND = "send";
  static final String SEND_ASYNC = "sendAsync";

  private final TollgateGate engine;

  JdkHttpClientCalls(TollgateGate engine) {
    this.engine = engine;
  }

  /** A call sent: who reads its answer. */
  private static final class Sent {
    final OutboundLimiter limiter;
    final JdkHttpCall call;

    Sent(OutboundLimiter limiter, JdkHttpCall call) {
      this.limiter = limiter;
      this.call = call;
    }

    void answered(HttpResponse<?> response) {
      limiter.afterResponse(call, response.statusCode(),
          name -> response.headers().firstValue(name).orElse(null));
    }
  }

  @Override
  public Object enter(Object request, Object what) {
    OutboundLimiter limiter = engine.outbound();
    if (!limiter.active() || !(request instanceof HttpRequest)) {
      return null;
    }
    JdkHttpCall call = new JdkHttpCall((HttpRequest) request);
    OutboundDecision decision = limiter.beforeSend(call);
    if (!decision.send()) {
      Exception refused = OutboundRefusals.exception(decision, call);
      return Refusal.returning(
          SEND_ASYNC.equals(what) ? RefusedFuture.failingWith(refused) : refused);
    }
    return new Sent(limiter, call);
  }

  @Override
  public Object returned(Object scope, Object result) {
    if (!(scope instanceof Sent)) {
      return result;
    }
    Sent sent = (Sent) scope;
    if (result instanceof HttpResponse) {
      sent.answered((HttpResponse<?>) result);
    } else if (result instanceof CompletableFuture) {
      // A dependent action: the application keeps the very future the client returned.
      ((CompletableFuture<?>) result).whenComplete((response, failure) -> {
        if (response instanceof HttpResponse) {
          sent.answered((HttpResponse<?>) response);
        }
      });
    }
    return result;
  }
}
