package io.tollgate.limiters;

/**
 * The generic cell rate algorithm, and the token bucket with it: one request (of cost 1) every
 * emission interval {@code T = period/limit} on average, with a burst tolerance of {@code burst}
 * requests, and optionally queueing ("pacing") instead of refusing. This class is the {@code gcra}
 * algorithm of the rules file; {@link TokenBucket}, the {@code token-bucket} algorithm, is this
 * class without max-delay (a bucket of {@code burst} tokens refilled at {@code limit/period} is
 * the same schedule seen from the other side).
 *
 * <p>State is one number, the theoretical arrival time {@code tat}: when the key's next request
 * would be on schedule (for the bucket: the bucket is full when {@code tat <= now}). A request of
 * cost {@code c} at {@code now} moves it to {@code tat' = max(tat, now) + c*T}. How far {@code tat'}
 * runs ahead of {@code now} decides:
 *
 * <ul>
 *   <li>{@code tat' - now <= burst*T}: allowed at once ({@code remaining} is how many more units
 *       fit now: the tokens left);
 *   <li>otherwise, with {@code wait = tat' - now - burst*T}: if {@code wait <= maxDelay} the request
 *       is allowed with {@link Verdict#delayNanos} {@code = wait}: the caller holds it that long
 *       and then lets it through, so that requests leave evenly spaced (nginx {@code limit_req}
 *       with {@code burst} and without {@code nodelay}). The slot is booked: {@code tat} moves.
 *   <li>else refused, {@code tat} unchanged (a refused request takes nothing), with retry-after
 *       {@code wait - maxDelay}: the earliest moment the same request would be let in (possibly
 *       itself delayed by up to maxDelay).
 * </ul>
 *
 * <p>Reset (the quota whole again, the bucket full) is {@code tat' - now}: when the key is back on
 * schedule. A cost larger than {@code burst + maxDelay/T} can never pass: it is refused with a
 * retry-after of one period (a back-off, not a promise), and the state is left alone.
 *
 * <p>Exact arithmetic, no floating point: {@code T} is rarely a whole number of nanoseconds (a
 * minute over 7 is 8,571,428,571.43 ns), so {@code tat} is held as whole time units plus a fraction
 * in {@code 1/limit} of a unit. Over any run of requests no fraction of a token is lost or invented.
 * The time unit is the nanosecond unless the rule's numbers are so large (a burst of millions over
 * a day) that nanoseconds would overflow a {@code long}; then it coarsens to micro-, milli- or whole
 * seconds, still exact in that unit ({@link #chooseUnit}; the token bucket keeps its own rule,
 * {@link TokenBucket#chooseUnit}). The max delay is floored to whole units. The Redis script {@code
 * gcra.lua} mirrors {@link #decide} and {@link #adjust} for both algorithms: the same values
 * (AlgorithmConformanceTest), though the reset is computed here without a division where the
 * fraction allows it.
 */
public class Gcra implements RateLimitAlgorithm<Gcra.State> {

  /** Per-key state: the theoretical arrival time, {@code tat + tatFraction/limit} time units. */
  public static final class State extends KeyState {
    long tat;
    long tatFraction;

    public long tat() {
      return tat;
    }

    public long tatFraction() {
      return tatFraction;
    }
  }

  private final LimitSpec spec;
  private final long limit;
  private final long unitNanos;
  private final long periodUnits;
  private final long intervalWhole;
  private final long intervalRemainder;
  /** {@code burst * T}, scaled by {@code limit}: the most {@code tat} may run ahead of now at once. */
  private final long burstToleranceScaled;
  /** {@code maxDelay} in whole units, scaled by {@code limit}. */
  private final long maxDelayScaled;
  /** The largest cost that can ever pass: {@code (burst*T + maxDelay) / T}. */
  private final long maxCost;
  /** {@code burst - 1}: the units left after a request of cost 1 that finds the bucket full. */
  private final long burstLessOne;
  /** One interval {@code T} rounded up to whole units, in nanoseconds ({@link #decideFull}). */
  private final long intervalCeilNanos;
  /** {@code T <= 1} unit ({@code periodUnits <= limit}): the next unit is at most one away. */
  private final boolean intervalWithinOneUnit;

  public Gcra(LimitSpec spec) {
    this(spec, 0);
  }

  /**
   * @param maxDelayNanos the longest a request may be held back instead of refused; 0 to never
   *     delay
   */
  public Gcra(LimitSpec spec, long maxDelayNanos) {
    this(spec, notNegative(maxDelayNanos), chooseUnit(spec, maxDelayNanos));
  }

  /** With the time unit chosen by the caller: {@link TokenBucket}'s own rule. */
  Gcra(LimitSpec spec, long maxDelayNanos, long unitNanos) {
    this.spec = spec;
    this.limit = spec.limit();
    this.unitNanos = unitNanos;
    this.periodUnits = spec.periodNanos() / unitNanos;
    this.intervalWhole = periodUnits / limit;
    this.intervalRemainder = periodUnits % limit;
    this.burstToleranceScaled = spec.burst() * periodUnits;
    this.maxDelayScaled = (maxDelayNanos / unitNanos) * limit;
    this.maxCost = (burstToleranceScaled + maxDelayScaled) / periodUnits;
    this.burstLessOne = spec.burst() - 1;
    this.intervalCeilNanos = ExactMath.ceilDiv(periodUnits, limit) * unitNanos;
    this.intervalWithinOneUnit = periodUnits <= limit;
  }

  private static long notNegative(long maxDelayNanos) {
    if (maxDelayNanos < 0) {
      throw new IllegalArgumentException("max-delay must not be negative: " + maxDelayNanos);
    }
    return maxDelayNanos;
  }

  /**
   * The finest unit that divides the period and in which {@code (tat - now) * limit} cannot
   * overflow: it is at most twice {@code burst*T + maxDelay}, scaled.
   */
  static long chooseUnit(LimitSpec spec, long maxDelayNanos) {
    for (long unit : ExactMath.UNITS) {
      if (unit != 1L && spec.periodNanos() % unit != 0) {
        break;
      }
      long periodUnits = spec.periodNanos() / unit;
      long maxDelayUnits = maxDelayNanos / unit;
      if (ExactMath.productFits(spec.burst(), periodUnits)
          && ExactMath.productFits(maxDelayUnits + 1, spec.limit())
          && spec.burst() * periodUnits + (maxDelayUnits + 1) * spec.limit() <= ExactMath.MAX_SCALED / 4
          && ExactMath.productFits(spec.burst() + (maxDelayUnits * spec.limit()) / periodUnits + 1, spec.limit())) {
        return unit;
      }
    }
    throw new IllegalArgumentException(
        "limit " + spec.limit() + ", burst " + spec.burst() + ", period and max-delay are too"
            + " large to compute exactly; use a smaller burst, max-delay or period");
  }

  @Override
  public final State newState() {
    return new State();
  }

  /**
   * Small on purpose: the JIT inlines it into the store's decision, and with it the full bucket's
   * few stores ({@link #decideFull}); the general arithmetic, too big to inline (C2's "hot method
   * too big"), stays a call of its own.
   */
  @Override
  public final void decide(State state, long nowNanos, long cost, Verdict verdict) {
    long now = inUnits(nowNanos);
    if (cost == 1 && state.tat < now) {
      decideFull(state, now, verdict);
      return;
    }
    decideAhead(state, now, cost, verdict);
  }

  /** {@link #decide} of any cost, on a bucket not known to be full: the general arithmetic. */
  private void decideAhead(State state, long now, long cost, Verdict verdict) {
    long base;
    long baseFraction;
    if (state.tat < now) {
      base = now;
      baseFraction = 0;
    } else {
      base = state.tat;
      baseFraction = state.tatFraction;
    }
    long behindScaled = (base - now) * limit + baseFraction;

    if (cost > maxCost) {
      verdict.refuse(
          remaining(behindScaled), spec.periodNanos(), unitsUpTo(base - now, baseFraction) * unitNanos);
      return;
    }

    // tat' = base + cost * T, whole units plus a fraction over limit.
    long fractionSum = baseFraction + cost * intervalRemainder;
    long newTat;
    long newFraction;
    if (fractionSum >= 0 && fractionSum < limit) {
      // no whole unit carried (always so when the limit divides the period): no division
      newTat = base + cost * intervalWhole;
      newFraction = fractionSum;
    } else {
      newTat = base + cost * intervalWhole + fractionSum / limit;
      newFraction = fractionSum % limit;
    }

    long aheadScaled = (newTat - now) * limit + newFraction;
    long excessScaled = aheadScaled - burstToleranceScaled;
    if (excessScaled <= 0) {
      state.tat = newTat;
      state.tatFraction = newFraction;
      // The next unit: tat' must fall back by what is missing of one more whole interval.
      long toNextUnitScaled = periodUnits - (-excessScaled % periodUnits);
      verdict.allow(
          -excessScaled / periodUnits,
          unitsUpTo(newTat - now, newFraction) * unitNanos,
          nextUnitUnits(toNextUnitScaled) * unitNanos);
    } else if (excessScaled <= maxDelayScaled) {
      state.tat = newTat;
      state.tatFraction = newFraction;
      // Delayed: a unit passes at once again when tat' is one interval inside the tolerance.
      verdict.allow(
          0,
          unitsUpTo(newTat - now, newFraction) * unitNanos,
          ExactMath.ceilDiv(excessScaled + periodUnits, limit) * unitNanos);
      verdict.delayNanos = ExactMath.ceilDiv(excessScaled, limit) * unitNanos;
    } else {
      verdict.refuse(
          remaining(behindScaled),
          ExactMath.ceilDiv(excessScaled - maxDelayScaled, limit) * unitNanos,
          unitsUpTo(base - now, baseFraction) * unitNanos);
    }
  }

  /**
   * {@code ceil(toNextUnitScaled / limit)} for {@code 0 < toNextUnitScaled <= periodUnits}: one
   * unit, with no division, when an interval is at most one unit ({@code periodUnits <= limit}: a
   * rule of more than one request per unit, such as a high limit counted in microseconds), since
   * then {@code toNextUnitScaled <= limit}; else the quotient rounded up, without {@code ceilDiv}'s
   * sign checks (the argument is positive).
   */
  private long nextUnitUnits(long toNextUnitScaled) {
    if (intervalWithinOneUnit) {
      return 1;
    }
    return (toNextUnitScaled - 1) / limit + 1;
  }

  /**
   * A request of cost 1 that finds the bucket full ({@code tat < now}: a key's first request, and
   * any after a pause long enough to refill it), which {@link #decide} would compute with three
   * divisions: {@code tat' = now + T} is exactly one interval ahead ({@code T * limit = period},
   * scaled), so {@code burst - 1} units are left and both the reset and the next unit are one
   * interval rounded up to whole units, the same values every time. Always allowed at once: a
   * burst is at least 1 ({@link LimitSpec}).
   */
  private void decideFull(State state, long now, Verdict verdict) {
    state.tat = now + intervalWhole; // the fraction carried is T's own, less than one unit
    state.tatFraction = intervalRemainder;
    verdict.allow(burstLessOne, intervalCeilNanos, intervalCeilNanos);
  }

  /**
   * {@code nowNanos} in whole time units, rounded down: the nanoseconds themselves in the usual
   * unit, without the division that every decision would otherwise make.
   */
  private long inUnits(long nowNanos) {
    if (unitNanos == 1) {
      return nowNanos;
    }
    // the finer units as constants (ExactMath.UNITS): the JIT divides by a constant with a
    // multiplication, where by the field it would divide on every decision (a rule of a large
    // limit or a long period counts in microseconds or milliseconds)
    if (unitNanos == 1_000L) {
      return Math.floorDiv(nowNanos, 1_000L);
    }
    if (unitNanos == 1_000_000L) {
      return Math.floorDiv(nowNanos, 1_000_000L);
    }
    return Math.floorDiv(nowNanos, unitNanos);
  }

  /**
   * {@code ceil((whole * limit + fraction) / limit)}: for a fraction of a unit, as the state keeps
   * it ({@code 0 <= fraction < limit}), the whole units and one more for any fraction, without the
   * division (one less on every allowed decision); else the division.
   */
  private long unitsUpTo(long whole, long fraction) {
    if (fraction >= 0 && fraction < limit) {
      return fraction == 0 ? whole : whole + 1;
    }
    return ExactMath.ceilDiv(whole * limit + fraction, limit);
  }

  /**
   * Whole units that would pass at once, with {@code tat} this far ahead of now (scaled): none,
   * without the division, when less than one unit's room is left (every refusal of cost 1, the
   * common case of a flood).
   */
  private long remaining(long behindScaled) {
    long room = burstToleranceScaled - behindScaled;
    return room < periodUnits ? 0 : room / periodUnits;
  }

  /**
   * Moves {@code tat} by {@code delta * T}: forward for an extra charge (at most until the bucket
   * is empty and the max delay used up), back for a refund (never before now: the bucket is never fuller than full).
   */
  @Override
  public final void adjust(State state, long nowNanos, long delta) {
    if (delta == 0) {
      return;
    }
    long now = inUnits(nowNanos);
    long cap = burstToleranceScaled + maxDelayScaled;
    long ahead = state.tat < now ? 0 : (state.tat - now) * limit + state.tatFraction;
    long units = Math.min(Math.abs(delta), cap / periodUnits + 1);
    long next = delta > 0 ? Math.min(cap, ahead + units * periodUnits) : Math.max(0, ahead - units * periodUnits);
    if (delta > 0 && next <= ahead) {
      return; // already empty: nothing more to take
    }
    state.tat = now + next / limit;
    state.tatFraction = next % limit;
  }

  /**
   * The tokens used stay used, against the new limit ({@link UsedTokens}). Only from the same
   * algorithm: a rule changed from {@code token-bucket} to {@code gcra} or back starts afresh, as
   * any change of algorithm does, and as on Redis, where the key names the algorithm.
   */
  @Override
  public final State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof Gcra) || ((Gcra) previous).kind() != kind()) {
      return null;
    }
    Gcra old = (Gcra) previous;
    State was = (State) previousState;
    long[] tat = new long[2];
    if (!UsedTokens.carry(
        was.tat, was.tatFraction, old.unitNanos, old.periodUnits, old.limit,
        old.burstToleranceScaled + old.maxDelayScaled,
        nowNanos, unitNanos, periodUnits, limit, burstToleranceScaled + maxDelayScaled, tat)) {
      return null;
    }
    State state = new State();
    state.tat = tat[0];
    state.tatFraction = tat[1];
    return state;
  }

  @Override
  public final long idleNanosUntilFresh() {
    // tat runs at most burst*T + maxDelay ahead of the last request; one more unit for rounding.
    return ExactMath.ceilDiv(burstToleranceScaled + maxDelayScaled, limit) * unitNanos + unitNanos;
  }

  @Override
  public final QuotaPolicy policy() {
    return QuotaPolicy.of(limit, spec.periodNanos());
  }

  /** The rules file's algorithm this is: {@code gcra} ({@link TokenBucket}: {@code token-bucket}). */
  public AlgorithmKind kind() {
    return AlgorithmKind.GCRA;
  }

  /**
   * The same algorithm with other numbers (the same max-delay): an instance's share of the limit
   * when Redis cannot answer.
   */
  public Gcra withSpec(LimitSpec spec) {
    return new Gcra(spec, maxDelayNanos());
  }

  public final LimitSpec spec() {
    return spec;
  }

  /** The longest a request may be held back, in nanoseconds (whole time units). */
  public final long maxDelayNanos() {
    return maxDelayScaled / limit * unitNanos;
  }

  /** Nanoseconds per time unit of the arithmetic (1 unless the numbers are huge). */
  public final long unitNanos() {
    return unitNanos;
  }
}
