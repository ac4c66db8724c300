package io.tollgate.config;

import java.util.Objects;

/**
 * One limit of a rule as the rules file gives it: {@code limit} units per {@code period}, in bursts
 * of {@code burst}.
 *
 * <p>The parsed value, not what the algorithms run with ({@link io.tollgate.limiters.LimitSpec},
 * made from this by {@code rules.RuleSetFactory}): a {@code burst} left out is remembered here as
 * the limit; equality is by value, because it decides whether a reload keeps the rule's counts; and
 * it prints in the file's units ({@code 10/1m burst 20}) for the operator's lines. {@code limiters}
 * cannot use {@code config}'s durations, so the two are kept apart rather than one class knowing
 * both the file and the algorithms.
 */
public final class LimitConfig {
  private final long limit;
  private final long periodNanos;
  private final long burst;

  /**
   * @param burst 0 for the default, {@code limit}
   * @throws IllegalArgumentException when limit or period is not positive
   */
  public LimitConfig(long limit, long periodNanos, long burst) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("period must be positive: " + periodNanos);
    }
    this.limit = limit;
    this.periodNanos = periodNanos;
    this.burst = burst > 0 ? burst : limit;
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
    if (!(o instanceof LimitConfig)) {
      return false;
    }
    LimitConfig l = (LimitConfig) o;
    return limit == l.limit && periodNanos == l.periodNanos && burst == l.burst;
  }

  @Override
  public int hashCode() {
    return Objects.hash(limit, periodNanos, burst);
  }

  @Override
  public String toString() {
    return limit + "/" + Durations.format(periodNanos) + (burst != limit ? " burst " + burst : "");
  }
}
