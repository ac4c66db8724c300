package io.tollgate.bootstrap;

import java.io.IOException;

/**
 * What an outbound call the agent did not send throws into the application: its outbound rule had
 * no room for it within the rule's wait ({@code on-limit: fail}, or past {@code max-wait}), or the
 * partner asked for a longer wait than the call could make. An {@link IOException}, which the
 * application's HTTP client declares and its code already handles (as it handles the partner's own
 * refusals); on the bootstrap class path so that every class loader sees this one type, and the
 * application may catch it by name to read {@link #rule()} and {@link #retryAfterSeconds()}.
 */
public final class OutboundCallRefused extends IOException {

  private static final long serialVersionUID = 1L;

  private final String rule;
  private final long retryAfterSeconds;

  /** {@code call}: the call as the message shows it, {@code GET http://api.example:443/orders}. */
  public OutboundCallRefused(String rule, long retryAfterSeconds, String call) {
    super("Tollgate outbound rule '" + rule + "' did not send " + call + ": the partner's limit"
        + " has no room for it now; retry after " + retryAfterSeconds + " s");
    this.rule = rule;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The outbound rule that refused the call. */
  public String rule() {
    return rule;
  }

  /** Whole seconds until the rule has room again: what a partner's {@code Retry-After} says. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
