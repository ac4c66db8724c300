package io.tollgate.outbound;

/**
 * What the outbound limits say of a call once any pacing wait is over: send it, or fail it as the
 * client would fail for a partner's 429.
 */
public final class OutboundDecision {

  /** Send the call: no rule matched, or every matching rule had room (perhaps after a wait). */
  public static final OutboundDecision SEND = new OutboundDecision(null, 0);

  private final String ruleName;
  private final long retryAfterSeconds;

  private OutboundDecision(String ruleName, long retryAfterSeconds) {
    this.ruleName = ruleName;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Fail the call fast: {@code ruleName} had no room within its wait. */
  public static OutboundDecision fail(String ruleName, long retryAfterSeconds) {
    if (ruleName == null) {
      throw new IllegalArgumentException("a failed call names its rule");
    }
    return new OutboundDecision(ruleName, Math.max(0, retryAfterSeconds));
  }

  public boolean send() {
    return ruleName == null;
  }

  /** The outbound rule that failed the call; null when it is sent. */
  public String ruleName() {
    return ruleName;
  }

  /** Whole seconds until the rule has room again, for a synthetic response's Retry-After. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String toString() {
    return send() ? "send" : "fail(" + ruleName + ", retry after " + retryAfterSeconds + " s)";
  }
}
