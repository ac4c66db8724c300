package io.tollgate.instrumentation.outbound;

import io.tollgate.outbound.OutboundCall;
import io.tollgate.outbound.OutboundDecision;
import io.tollgate.outbound.OutboundLimiter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Outbound rules that record what the client modules asked them, and answer {@link #decision}: the
 * calls as the rules see them ({@code GET 127.0.0.1:9000/orders X-Tenant=acme}), and the
 * partner's answers ({@code 429 Retry-After=1}).
 */
final class RecordingLimiter implements OutboundLimiter {

  volatile boolean active = true;
  volatile OutboundDecision decision = OutboundDecision.SEND;
  final List<String> decided = new CopyOnWriteArrayList<>();
  final List<String> answers = new CopyOnWriteArrayList<>();

  void reset() {
    active = true;
    decision = OutboundDecision.SEND;
    decided.clear();
    answers.clear();
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public OutboundDecision beforeSend(OutboundCall call) {
    decided.add(call.method() + " " + call.host() + ":" + call.port() + call.path()
        + " X-Tenant=" + call.header("X-Tenant"));
    return decision;
  }

  @Override
  public void afterResponse(OutboundCall call, int status, Function<String, String> header) {
    answers.add(status + " Retry-After=" + header.apply("Retry-After"));
  }
}
