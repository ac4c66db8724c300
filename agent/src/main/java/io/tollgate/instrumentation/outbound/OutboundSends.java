package io.tollgate.instrumentation.outbound;

import io.tollgate.instrumentation.EntryPointHandler;
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

  @Override
  public Object enter(Object first, Object second) {
    return SentCall.decide(limits.get(), client, first, second);
  }

  @Override
  public Object returned(Object scope, Object response) {
    if (response != null && scope instanceof SentCall) {
      ((SentCall) scope).learn(response);
    }
    return response;
  }
}
