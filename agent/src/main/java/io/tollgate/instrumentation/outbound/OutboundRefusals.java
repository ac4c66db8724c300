package io.tollgate.instrumentation.outbound;

import io.tollgate.bootstrap.OutboundCallRefused;
import io.tollgate.outbound.OutboundCall;
import io.tollgate.outbound.OutboundDecision;

/** How a call the outbound rules failed reaches the application: the client's own exception type. */
public final class OutboundRefusals {

  private OutboundRefusals() {}

  /** The exception a refused call throws (or completes its future with). */
  public static OutboundCallRefused exception(OutboundDecision decision, OutboundCall call) {
    return new OutboundCallRefused(decision.ruleName(), decision.retryAfterSeconds(),
        call.method() + " " + call.host() + ":" + call.port() + call.path());
  }
}
