package io.tollgate.instrumentation.outbound;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;

/**
 * A call the outbound rules let go out, with the rules that decided it, so that they learn the
 * partner's answer to it: what every client's send does, whether it gets the response back on the
 * same thread ({@link OutboundSends}) or later, on a callback.
 */
public final class SentCall {

  private final OutboundLimiter limits;
  private final OutboundClient client;
  private final ClientCall call;

  private SentCall(OutboundLimiter limits, OutboundClient client, ClientCall call) {
    this.limits = limits;
    this.client = client;
    this.call = call;
  }

  /**
   * Reads the call from what the woven send passes ({@code first}, {@code second}) and asks the
   * rules once, which may pace it on this thread.
   *
   * @return null when no outbound rule is in force or the call cannot be read (it goes out as
   *     it is); a {@link Refusal} that fails it with {@link OutboundRefusals#exception}; or the
   *     {@link SentCall}
   */
  public static Object decide(
      OutboundLimiter limits, OutboundClient client, Object first, Object second) {
    if (!limits.active()) {
      return null;
    }
    ClientCall call = client.callOf(first, second);
    if (call == null) {
      return null;
    }
    OutboundDecision decision = limits.beforeSend(call);
    if (!decision.send()) {
      return Refusal.returning(OutboundRefusals.exception(decision, call));
    }
    return new SentCall(limits, client, call);
  }

  /** The partner answered with {@code response}: the rules that sent the call learn it. */
  public void learn(Object response) {
    limits.afterResponse(call, client.status(call, response),
        name -> client.responseHeader(call, response, name));
  }
}
