package io.tollgate.limiters;

/**
 * The two-counter sliding window: the {@code sliding-window} algorithm. Windows of {@code period}
 * start at whole multiples of the period since the Unix epoch, as for {@link FixedWindow}; the
 * key keeps the count of the current window and of the one before, and estimates the units in
 * the last period as {@code previous * (1 - elapsed/period) + current}, where {@code elapsed} is
 * the time since the current window started: the previous window is assumed to have been spread
 * evenly over it, and the part of it that is still within one period of now is counted.
 *
 * <p>A request of cost {@code c} is allowed when {@code previous * (1 - elapsed/period) + current
 * + c <= limit}, then {@code current} grows by {@code c}; a refused request counts nothing. The
 * comparison is done exactly, in integers, multiplied through by the period: {@code previous *
 * (period - elapsed) <= (limit - current - c) * period}. {@code remaining} is the whole units the
 * estimate leaves free now.
 *
 * <p>Retry-after is exact: the first moment the estimate lets the same request in, either later in
 * this window (as the previous window's weight falls) or in the next one (where this window's count
 * becomes the previous one). Reset is when the estimate reaches zero: the end of the next window if
 * this window counted anything, else the end of this one. A cost larger than the limit can never
 * pass: it is refused with a retry-after of one period (a back-off, not a promise).
 *
 * <p>Choose it for "N per period" without the fixed window's double burst at a boundary, at the
 * same small cost (three longs per key; Redis: two counters). It is an estimate: with traffic
 * bunched at the end of the previous window it can admit a little more or less than an exact log
 * would; {@link SlidingLog} is exact at a memory cost proportional to the limit.
 *
 * <p>Products such as {@code limit * period} must fit in a {@code long}: for huge numbers (a limit
 * of millions over days) the time unit coarsens from nanoseconds to micro-, milli- or whole seconds,
 * exactly as in {@link TokenBucket}; elapsed time is then counted in whole units (rounded down,
 * which counts the previous window slightly more, never less).
 */
public final class SlidingWindow implements RateLimitAlgorithm<SlidingWindow.State> {


  /** Per-key state: the current window's index since the epoch, and both windows' counts. */
  public static final class State extends KeyState {
    long window;
    long previous;
    long current;

    public long window() {
      return window;
    }

    public long previous() {
      return previous;
    }

    public long current() {
      return current;
    }
  }

  private final LimitSpec spec;
  private final long limit;
  private final long unitNanos;
  /** The period in time units. */
  private final long period;

  public SlidingWindow(LimitSpec spec) {
    this.spec = spec;
    this.limit = spec.limit();
    this.unitNanos = chooseUnit(spec);
    this.period = spec.periodNanos() / unitNanos;
  }

  /** The finest unit dividing the period in which {@code 2 * limit * period} fits. */
  static long chooseUnit(LimitSpec spec) {
    for (long unit : ExactMath.UNITS) {
      if (unit != 1L && spec.periodNanos() % unit != 0) {
        break;
      }
      long periodUnits = spec.periodNanos() / unit;
      if (periodUnits > 0 && spec.limit() <= ExactMath.MAX_SCALED / 2 / periodUnits) {
        return unit;
      }
    }
    throw new IllegalArgumentException(
        "limit " + spec.limit() + " and period are too large to compute exactly; use a smaller"
            + " limit or a shorter period");
  }

  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    long now = Math.floorDiv(nowNanos, unitNanos);
    long window = Math.floorDiv(now, period);
    long elapsed = Math.floorMod(now, period);

    if (state.window != window) {
      if (state.window == window - 1) {
        state.previous = state.current;
      } else {
        state.previous = 0;
      }
      state.current = 0;
      state.window = window;
    }
    long previous = state.previous;
    long current = state.current;
    // The previous window's weight, scaled by period: period - elapsed, in (0, period].
    long weight = period - elapsed;

    if (cost > limit) {
      verdict.refuse(
          remaining(previous, current, weight),
          spec.periodNanos(),
          resetNanos(now, nowNanos, previous, current, weight));
      return;
    }
    if (cost <= limit - current && previous * weight <= (limit - current - cost) * period) {
      state.current = current + cost;
      long remaining = remaining(previous, current + cost, weight);
      // One more unit is free when a request of remaining + 1 would fit.
      long nextUnitNanos =
          remaining >= limit
              ? 0
              : (now + waitUnits(previous, current + cost, weight, remaining + 1)) * unitNanos
                  - nowNanos;
      verdict.allow(
          remaining,
          resetNanos(now, nowNanos, previous, current + cost, weight),
          nextUnitNanos);
      return;
    }

    verdict.refuse(
        remaining(previous, current, weight),
        (now + waitUnits(previous, current, weight, cost)) * unitNanos - nowNanos,
        resetNanos(now, nowNanos, previous, current, weight));
  }

  /** Time units from now until a request of {@code cost} (at most the limit) fits the estimate. */
  private long waitUnits(long previous, long current, long weight, long cost) {
    long fitting = (limit - current - cost) * period; // may be negative: never fits this window
    if (previous > 0 && fitting >= previous) {
      // Later in this window: previous * (weight - wait) <= fitting.
      return weight - fitting / previous;
    } else if (current == 0) {
      // In the next window, where previous = current = 0: at its start.
      return weight;
    } else {
      // In the next window, at elapsed e: current * (period - e) <= (limit - cost) * period.
      long largestWeight = (limit - cost) * period / current;
      return weight + Math.max(0, period - largestWeight);
    }
  }

  /** Whole units the estimate leaves free. */
  private long remaining(long previous, long current, long weight) {
    long free = limit * period - previous * weight - current * period;
    return free <= 0 ? 0 : free / period;
  }

  /** Nanoseconds until the estimate is zero. */
  private long resetNanos(long now, long nowNanos, long previous, long current, long weight) {
    long units;
    if (current > 0) {
      units = weight + period;
    } else if (previous > 0) {
      units = weight;
    } else {
      return 0;
    }
    return (now + units) * unitNanos - nowNanos;
  }

  /**
   * Adds {@code delta} to the current window's counter, kept between 0 and the limit. A request
   * that began in an earlier window is not corrected: its units have moved to the weighted
   * previous counter.
   */
  @Override
  public void adjust(State state, long nowNanos, long delta) {
    if (state.window == Math.floorDiv(Math.floorDiv(nowNanos, unitNanos), period)) {
      state.current = Math.max(0, Math.min(limit, state.current + delta));
    }
  }

  /**
   * With the same period, the counts are kept as they are: the estimate then weighs them against
   * the new limit. With another period (or time unit), what the old estimate still counted (the
   * previous window's and the current one's, in full) becomes the new current window's count, up
   * to the new limit.
   */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof SlidingWindow)) {
      return null;
    }
    SlidingWindow old = (SlidingWindow) previous;
    State was = (State) previousState;
    State state = new State();
    if (old.unitNanos == unitNanos && old.period == period) {
      state.window = was.window;
      state.previous = was.previous;
      state.current = was.current;
      return state;
    }
    long oldWindow = Math.floorDiv(Math.floorDiv(nowNanos, old.unitNanos), old.period);
    long used =
        was.window == oldWindow
            ? was.previous + was.current
            : was.window == oldWindow - 1 ? was.current : 0;
    if (used == 0) {
      return null;
    }
    state.window = Math.floorDiv(Math.floorDiv(nowNanos, unitNanos), period);
    state.current = Math.min(limit, used);
    return state;
  }

  @Override
  public long idleNanosUntilFresh() {
    // Idle for two periods, the key is at least two windows on: both counts start from zero.
    return 2 * spec.periodNanos();
  }

  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(limit, spec.periodNanos());
  }

  public LimitSpec spec() {
    return spec;
  }

  /** Nanoseconds per time unit of the arithmetic (1 unless the numbers are huge). */
  public long unitNanos() {
    return unitNanos;
  }
}
