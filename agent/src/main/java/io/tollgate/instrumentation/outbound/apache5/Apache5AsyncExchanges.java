package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.outbound.OutboundClient;
import io.tollgate.instrumentation.outbound.SentCall;
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
  private final Map<Object, SentCall> awaitingAnswer = Collections.synchronizedMap(new WeakHashMap<>());

  public Apache5AsyncExchanges(Supplier<OutboundLimiter> limits, OutboundClient client) {
    this.limits = limits;
    this.client = client;
  }

  /** The request channel starts: {@code future} is the call's, {@code request} its request. */
  @Override
  public Object enter(Object future, Object request) {
    if (future == null) {
      return null;
    }
    // the request carries its scheme and authority (the client resolved the target from them)
    Object decided = SentCall.decide(limits.get(), client, null, request);
    if (decided instanceof SentCall) {
      awaitingAnswer.put(future, (SentCall) decided);
      return null;
    }
    return decided;
  }

  /** The client's callback is given {@code response} to the call of {@code future}. */
  @Override
  public Object returned(Object future, Object response) {
    SentCall sent = future == null || response == null ? null : awaitingAnswer.remove(future);
    if (sent != null) {
      sent.learn(response);
    }
    return response;
  }
}
