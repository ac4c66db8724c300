package io.tollgate.limiters;

/**
 * The numbers one algorithm runs with: {@code limit} units per {@code period}, with a bucket of
 * {@code burst} units (the token bucket's capacity).
 *
 * <p>Not the rules file's limit ({@code config.LimitConfig}, which this is made from by {@code
 * rules.RuleSetFactory}, and which knows the file's defaults, units and equality): every number
 * here is given and positive, as the algorithms and the Redis scripts need, and a store may make
 * another one (the limit divided among instances for {@code on-failure: local}).
 */
public final class LimitSpec {

  private final long limit;
  private final long periodNanos;
  private final long burst;

  public LimitSpec(long limit, long periodNanos, long burst) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("period must be positive: " + periodNanos);
    }
    if (burst <= 0) {
      throw new IllegalArgumentException("burst must be positive: " + burst);
    }
    this.limit = limit;
    this.periodNanos = periodNanos;
    this.burst = burst;
  }

  public static LimitSpec of(long limit, long periodNanos) {
    return new LimitSpec(limit, periodNanos, limit);
  }

  public long limit() {
    return limit;
  }

  public long periodNanos() {
    return periodNanos;
  }

  public long burst() {
    return burst;
  }

  @Override
  public String toString() {
    return limit + "/" + periodNanos + "ns burst " + burst;
  }
}
