package io.tollgate.limiters;

/**
 * One limit: {@code limit} units per {@code period}, with a bucket of {@code burst} units (the
 * token bucket's capacity). What the rules file gives ({@code config} parses it, filling in a
 * {@code burst} left out as the limit) and what the algorithms and the Redis scripts run with:
 * every number is given and positive. Equal by value, since a rule's limits are part of what a
 * reload compares; a store may make another one (the limit divided among instances for {@code
 * on-failure: local}). The rules file's units are printed by {@code config.Durations}, which this
 * package cannot use.
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
  public boolean equals(Object o) {
    if (!(o instanceof LimitSpec)) {
      return false;
    }
    LimitSpec l = (LimitSpec) o;
    return limit == l.limit && periodNanos == l.periodNanos && burst == l.burst;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(limit, periodNanos, burst);
  }

  @Override
  public String toString() {
    return limit + "/" + periodNanos + "ns burst " + burst;
  }
}
