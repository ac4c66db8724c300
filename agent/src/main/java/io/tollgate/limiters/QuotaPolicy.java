package io.tollgate.limiters;

/**
 * What a rule promises clients, in the terms of the IETF RateLimit-Policy header: {@code quota}
 * units per {@code windowSeconds}.
 */
public final class QuotaPolicy {

  private final long quota;
  private final long windowSeconds;

  public QuotaPolicy(long quota, long windowSeconds) {
    this.quota = quota;
    this.windowSeconds = Math.max(1, windowSeconds);
  }

  /** From a period in nanoseconds, rounded up to whole seconds. */
  public static QuotaPolicy of(long quota, long periodNanos) {
    return new QuotaPolicy(quota, ExactMath.ceilDiv(periodNanos, 1_000_000_000L));
  }

  public long quota() {
    return quota;
  }

  public long windowSeconds() {
    return windowSeconds;
  }

}
