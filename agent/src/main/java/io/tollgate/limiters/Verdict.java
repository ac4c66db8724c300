package io.tollgate.limiters;

/**
 * The outcome of one decision, written by an algorithm into a caller-owned instance.
 *
 * <p>Mutable and reused so that the hot path allocates nothing: the caller (one request on one
 * thread) owns the instance and reads it before the next decision.
 */
public final class Verdict {

  /** Whether the request may proceed. */
  public boolean allowed;

  /** Whole quota units left after this decision (never negative). */
  public long remaining;

  /** When refused: nanoseconds until a retry of the same cost could be allowed. 0 when allowed. */
  public long retryAfterNanos;

  /** Nanoseconds until the quota is whole again (bucket full, window over). */
  public long resetNanos;

  /**
   * Nanoseconds until at least one more unit of quota is available than {@link #remaining} says:
   * the newest RateLimit draft's {@code t} ("time until additional quota is made available"). For
   * a window counter that is the window's end, as {@link #resetNanos}; for a bucket it is the next
   * token, for a sliding window the moment the weighted estimate frees a unit, for a sliding log
   * when its oldest entry leaves. When refused, the same as {@link #retryAfterNanos}, so that a
   * client told {@code t} is not early for {@code Retry-After}. 0 when nothing is counted.
   */
  public long nextUnitNanos;

  /**
   * When allowed with a delay (GCRA {@code max-delay}): nanoseconds the request should wait before
   * it proceeds. 0 otherwise.
   */
  public long delayNanos;

  /**
   * Set by a shared store that could not answer, when a fallback policy decided instead: the
   * numbers are not the real quota's. A refusal then means "backend down" (503), not "over the
   * limit" (429), and no quota headers are sent.
   */
  public boolean backendUnavailable;

  /**
   * Set by a shared store that could not answer, whatever its fallback policy did (allow, deny, or
   * a local share of the limit): the shared quota is unknown, so no quota headers are sent, and
   * the rule's backend-error metric counts the decision.
   */
  public boolean fallback;

  /** As a new instance: for a caller that reuses one for its next decision. */
  public Verdict clear() {
    allowed = false;
    remaining = 0;
    retryAfterNanos = 0;
    resetNanos = 0;
    nextUnitNanos = 0;
    delayNanos = 0;
    backendUnavailable = false;
    fallback = false;
    return this;
  }

  public Verdict allow(long remaining, long resetNanos) {
    this.allowed = true;
    this.remaining = Math.max(0, remaining);
    this.retryAfterNanos = 0;
    this.resetNanos = Math.max(0, resetNanos);
    this.nextUnitNanos = this.resetNanos;
    this.delayNanos = 0;
    this.backendUnavailable = false;
    this.fallback = false;
    return this;
  }

  /**
   * Allowed, with the next unit of quota due sooner than the reset (a bucket's next token, a
   * sliding window's or log's next freed unit); never later than the reset.
   */
  public Verdict allow(long remaining, long resetNanos, long nextUnitNanos) {
    allow(remaining, resetNanos);
    this.nextUnitNanos = Math.max(0, Math.min(this.resetNanos, nextUnitNanos));
    return this;
  }

  public Verdict refuse(long remaining, long retryAfterNanos, long resetNanos) {
    this.allowed = false;
    this.remaining = Math.max(0, remaining);
    this.retryAfterNanos = Math.max(1, retryAfterNanos);
    this.resetNanos = Math.max(0, resetNanos);
    this.nextUnitNanos = this.retryAfterNanos;
    this.delayNanos = 0;
    this.backendUnavailable = false;
    this.fallback = false;
    return this;
  }

  @Override
  public String toString() {
    return (allowed ? "allowed" : "refused")
        + " remaining=" + remaining
        + " retryAfterNanos=" + retryAfterNanos
        + " resetNanos=" + resetNanos
        + (delayNanos > 0 ? " delayNanos=" + delayNanos : "");
  }
}
