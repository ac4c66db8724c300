package io.tollgate.instrumentation.outbound;

import io.tollgate.outbound.OutboundCall;
import io.tollgate.outbound.OutboundDecision;
import java.io.IOException;

/**
 * How a call the outbound rules failed reaches the application: the one place its exception is
 * made, for every client module.
 */
public final class OutboundRefusals {

  private OutboundRefusals() {}

  /**
   * The exception the client's send throws for a failed call: an {@code IOException}, as the
   * client throws when the partner cannot be reached, so the app's own handling of a failed call
   * applies; its message names the rule and when to retry.
   */
  public static IOException exception(OutboundDecision decision, OutboundCall call) {
    // issue 31: h-outbound-core's bootstrap OutboundCallRefused (this class, same signature)
    return new IOException("Tollgate outbound rule '" + decision.ruleName() + "' did not send "
        + call.method() + " " + call.host() + ":" + call.port() + call.path() + "; retry after "
        + decision.retryAfterSeconds() + " s");
  }
}
