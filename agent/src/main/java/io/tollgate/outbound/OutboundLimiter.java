package io.tollgate.outbound;

import java.util.function.Function;

/**
 * The outbound rules as a client module calls them: once before a call is sent, and once with the
 * partner's answer. A module calls {@link #beforeSend} exactly once per call however the client's
 * layers nest, and {@link #afterResponse} only for calls that were sent.
 */
public interface OutboundLimiter {

  /** No outbound rules: every call is sent, nothing is learnt. */
  OutboundLimiter NONE = new OutboundLimiter() {
    @Override
    public boolean active() {
      return false;
    }

    @Override
    public OutboundDecision beforeSend(OutboundCall call) {
      return OutboundDecision.SEND;
    }

    @Override
    public void afterResponse(OutboundCall call, int status, Function<String, String> header) {}
  };

  /** Whether any outbound rule is in force: a module asks first and does nothing more if not. */
  boolean active();

  /**
   * Decides {@code call}: may wait (pacing) up to the matching rules' bound on the calling thread,
   * never longer; then says whether to send it.
   */
  OutboundDecision beforeSend(OutboundCall call);

  /**
   * The partner answered a sent call with {@code status}; {@code header} reads the response's
   * headers by name (null when absent). A 429 or 503 with {@code Retry-After}, or {@code RateLimit}
   * with {@code r=0}, holds further calls of the matching rules' key.
   */
  void afterResponse(OutboundCall call, int status, Function<String, String> header);
}
