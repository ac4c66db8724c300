package io.tollgate.instrumentation.outbound;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;
import java.util.function.Supplier;

/**
 * What every client's woven send does, whatever the client: nothing when no outbound rule is in
 * force; otherwise reads the call, asks the outbound rules once (which may pace it, on the thread
 * that sends it), fails it with {@link OutboundRefusals#exception} when they say so, and hands
 * them the partner's response.
 */
public final class OutboundSends implements EntryPointHandler {

  private final Supplier<OutboundLimiter> limits;
  private final OutboundClient client;

  /** {@code limits} is asked at every call: the rules in force may change (reload). */
  public OutboundSends(Supplier<OutboundLimiter> limits, OutboundClient client) {
    this.limits = limits;
    this.client = client;
  }

  /** A call that was sent, and the rules that decided it: the scope for its response. */
  private static final class Sent {
    final OutboundLimiter limits;
    final ClientCall call;

    Sent(OutboundLimiter limits, ClientCall call) {
      this.limits = limits;
      this.call = call;
    }
  }

  @Override
  public Object enter(Object first, Object second) {
    OutboundLimiter limiter = limits.get();
    if (!limiter.active()) {
      return null;
    }
    ClientCall call = client.callOf(first, second);
    if (call == null) {
      return null;
    }
    OutboundDecision decision = limiter.beforeSend(call);
    if (!decision.send()) {
      return Refusal.returning(OutboundRefusals.exception(decision, call));
    }
    return new Sent(limiter, call);
  }

  @Override
  public Object returned(Object scope, Object response) {
    if (response == null || !(scope instanceof Sent)) {
      return response;
    }
    Sent sent = (Sent) scope;
    sent.limits.afterResponse(sent.call, client.status(sent.call, response),
        name -> client.responseHeader(sent.call, response, name));
    return response;
  }
}
