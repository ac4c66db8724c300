package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.outbound.ClientCall;
import io.tollgate.instrumentation.outbound.OutboundClient;
import io.tollgate.instrumentation.outbound.OutboundRefusals;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * The async client's calls: decided as the request channel starts (on the calling thread, which
 * a pacing rule may hold, never past its bound), and kept by their future until the client's
 * callback is given the partner's response, which the rules then learn. Weakly: a call that ends
 * without a response (failed, cancelled) leaves nothing behind.
 */
public final class Apache5AsyncExchanges implements EntryPointHandler {

  private final Supplier<OutboundLimiter> limits;
  private final OutboundClient client;
  private final Map<Object, Sent> awaitingAnswer = Collections.synchronizedMap(new WeakHashMap<>());

  public Apache5AsyncExchanges(Supplier<OutboundLimiter> limits, OutboundClient client) {
    this.limits = limits;
    this.client = client;
  }

  /** A call that was sent, and the rules that decided it. */
  private static final class Sent {
    final OutboundLimiter limits;
    final ClientCall call;

    Sent(OutboundLimiter limits, ClientCall call) {
      this.limits = limits;
      this.call = call;
    }
  }

  /** The request channel starts: {@code future} is the call's, {@code request} its request. */
  @Override
  public Object enter(Object future, Object request) {
    OutboundLimiter limiter = limits.get();
    if (!limiter.active() || future == null) {
      return null;
    }
    // the request carries its scheme and authority (the client resolved the target from them)
    ClientCall call = client.callOf(null, request);
    if (call == null) {
      return null;
    }
    OutboundDecision decision = limiter.beforeSend(call);
    if (!decision.send()) {
      return Refusal.returning(OutboundRefusals.exception(decision, call));
    }
    awaitingAnswer.put(future, new Sent(limiter, call));
    return null;
  }

  /** The client's callback is given {@code response} to the call of {@code future}. */
  @Override
  public Object returned(Object future, Object response) {
    Sent sent = future == null || response == null ? null : awaitingAnswer.remove(future);
    if (sent != null) {
      sent.limits.afterResponse(sent.call, client.status(sent.call, response),
          name -> client.responseHeader(sent.call, response, name));
    }
    return response;
  }
}
