package io.tollgate.config;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.LimitSpec;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How a rule counts: its {@code algorithm} and its limits ({@code limit}/{@code period}/{@code
 * burst}, {@code limits} or {@code plans}), with the settings that shape them ({@code max-delay}
 * of gcra, {@code calendar} and {@code time-zone} of a calendar quota).
 */
public final class Counting extends ConfigValue {

  private final AlgorithmKind algorithm;
  private final List<LimitSpec> limits;
  private final PlansConfig plans;
  private final long maxDelayNanos;
  private final CalendarQuota.Unit calendar;
  private final ZoneId timeZone;

  /**
   * @param algorithm null for the default, token-bucket
   * @param limits the rule's limits, at least one; with {@code plans}, the default plan's first
   * @param timeZone ignored without a calendar; null there for UTC
   */
  Counting(
      AlgorithmKind algorithm,
      List<LimitSpec> limits,
      PlansConfig plans,
      long maxDelayNanos,
      CalendarQuota.Unit calendar,
      ZoneId timeZone) {
    if (limits.isEmpty()) {
      throw new IllegalArgumentException("a rule needs a limit");
    }
    this.algorithm = algorithm == null ? AlgorithmKind.TOKEN_BUCKET : algorithm;
    this.limits = Collections.unmodifiableList(new ArrayList<>(limits));
    this.plans = plans;
    this.maxDelayNanos = maxDelayNanos;
    this.calendar = calendar;
    this.timeZone = calendar == null ? null : timeZone == null ? java.time.ZoneOffset.UTC : timeZone;
  }

  @Override
  Object[] fields() {
    return new Object[] {algorithm, limits, plans, maxDelayNanos, calendar, timeZone};
  }

  /** {@code algorithm}; default token-bucket. */
  public AlgorithmKind algorithm() {
    return algorithm;
  }

  /**
   * The rule's limits: {@code limits}, or the one {@code limit}/{@code period}/{@code burst}. With
   * {@link #plans()}, the default plan's limits are in the plans instead, and this is its first.
   */
  public List<LimitSpec> limits() {
    return limits;
  }

  /** The first of {@link #limits()}: the rule's limit when it has one. */
  public LimitSpec first() {
    return limits.get(0);
  }

  /** {@code plans}, or null. */
  public PlansConfig plans() {
    return plans;
  }

  /** {@code max-delay} of the gcra algorithm; 0 = refuse rather than delay. */
  public long maxDelayNanos() {
    return maxDelayNanos;
  }

  /** {@code calendar}: the calendar unit of a calendar quota, or null. */
  public CalendarQuota.Unit calendar() {
    return calendar;
  }

  /** {@code time-zone} of a calendar quota (UTC when not given); null without a calendar. */
  public ZoneId timeZone() {
    return timeZone;
  }
}
