package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.outbound.SentCall;
import io.tollgate.outbound.OutboundLimiter;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * The async client's calls: decided as the request channel starts (on the calling thread, which
 * a pacing rule may hold, never past its bound), and kept by their response consumer (one per
 * call) until the client's callback is given the partner's response, which the rules then learn.
 * Weakly: a call that ends without a response (failed, cancelled) leaves nothing behind.
 *
 * <p>A refused call fails as the client's own failures do, on both of the ways an app may be
 * told: the future (and the app's callback), which {@code doExecute} fails with the channel's
 * exception, and the response consumer, which {@code doExecute} does not tell of an exception out
 * of the channel. An app that passes the client no callback and waits on its consumer (Spring's
 * {@code WebClient} on {@code HttpComponentsClientHttpConnector}) would otherwise never hear of
 * the call again.
 */
public final class Apache5AsyncExchanges implements EntryPointHandler {

  private final Supplier<OutboundLimiter> limits;
  private final Apache5Requests client;
  private final Map<Object, SentCall> awaitingAnswer = Collections.synchronizedMap(new WeakHashMap<>());

  public Apache5AsyncExchanges(Supplier<OutboundLimiter> limits, Apache5Requests client) {
    this.limits = limits;
    this.client = client;
  }

  /** The request channel starts: {@code consumer} is the call's response consumer. */
  @Override
  public Object enter(Object consumer, Object request) {
    if (consumer == null) {
      return null;
    }
    // the request carries its scheme and authority (the client resolved the target from them)
    Object decided = SentCall.decide(limits.get(), client, null, request);
    if (decided instanceof SentCall) {
      awaitingAnswer.put(consumer, (SentCall) decided);
      return null;
    }
    if (decided instanceof Refusal
        && ((Refusal) decided).frameworkResponse instanceof Exception) {
      client.consumerFailed(request, consumer, (Exception) ((Refusal) decided).frameworkResponse);
    }
    return decided;
  }

  /** The client's callback is given {@code response} to the call of {@code consumer}. */
  @Override
  public Object returned(Object consumer, Object response) {
    SentCall sent = consumer == null || response == null ? null : awaitingAnswer.remove(consumer);
    if (sent != null) {
      sent.learn(response);
    }
    return response;
  }
}
