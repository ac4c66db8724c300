package io.tollgate.instrumentation.outbound;

import io.tollgate.outbound.OutboundDecision;
import java.io.IOException;

/**
 * What a call the outbound rules fail looks like to the app: the one place it is made, for every
 * client module.
 */
public final class OutboundRefusals {

  private OutboundRefusals() {}

  /**
   * The exception the client's send throws for a failed call: an {@code IOException}, as the
   * client throws when the partner cannot be reached, so the app's own handling of a failed call
   * applies; its message names the rule and when to retry.
   */
  public static IOException exceptionFor(OutboundDecision decision, ClientCall call) {
    // issue 31: the core's bootstrap OutboundCallRefused, once h-outbound-core is merged
    return new IOException("Tollgate outbound rule '" + decision.ruleName() + "' did not send "
        + call.describe() + "; retry after " + decision.retryAfterSeconds() + " s");
  }
}
