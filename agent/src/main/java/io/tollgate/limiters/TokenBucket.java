package io.tollgate.limiters;

/**
 * A token bucket of {@code burst} tokens refilled continuously at {@code limit/period}, kept as a
 * single "theoretical arrival time" (the GCRA form of the same bucket).
 *
 * <p>The bucket is full when {@code tat <= now}. A request of cost {@code c} moves {@code tat} to
 * {@code max(tat, now) + c*T}, where {@code T = period/limit} is the time one token takes to come
 * back; it is allowed when the bucket would not go below empty, that is when {@code tat - now <=
 * burst*T}. Tokens left are {@code (now + burst*T - tat) / T}.
 *
 * <p>A refused request takes nothing. Its retry-after is exact: the time until enough tokens are
 * back for the same cost ({@code tat' - now - burst*T}). Reset is when the bucket is full again
 * ({@code tat - now}). A cost larger than {@code burst} can never pass: it is refused with a
 * retry-after of one period (a back-off, not a promise), and the bucket is left alone.
 *
 * <p>Choose it (the default, {@code token-bucket}) for rates: "5 a minute" that tolerates a short
 * burst of {@code burst} after a quiet spell, with no window boundaries and two longs of state per
 * key. Over a long time at most {@code burst + elapsed * limit / period} units pass; a client that
 * keeps a full bucket can spend {@code burst} and then {@code limit} per period, so stack a short
 * rule under a long one when both matter. See {@link Gcra} for the same bucket with pacing.
 *
 * <p>Exact arithmetic, no floating point: {@code T} is rarely a whole number of nanoseconds
 * (a minute over 7 is 8,571,428,571.43 ns), so {@code tat} is held as whole time units plus a
 * fraction in {@code 1/limit} of a unit. Over any run of requests no fraction of a token is lost or
 * invented. The time unit is the nanosecond unless the rule's numbers are so large (a burst of
 * millions over a day) that nanoseconds would overflow a {@code long}; then it coarsens to micro-,
 * milli- or whole seconds, still exact in that unit.
 *
 * <p>The Redis script {@code token-bucket.lua} mirrors {@link #decide} line for line.
 */
public final class TokenBucket implements RateLimitAlgorithm<TokenBucket.State> {



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
  private final long burst;
  /** Nanoseconds per time unit. */
  private final long unitNanos;
  /** The period in time units: {@code T * limit}, exactly. */
  private final long periodUnits;
  /** {@code T} in whole time units, and the remainder in {@code 1/limit} of a unit. */
  private final long intervalWhole;
  private final long intervalRemainder;
  /** {@code burst * T}, scaled by {@code limit}: the most {@code tat} may run ahead of now. */
  private final long burstToleranceScaled;

  public TokenBucket(LimitSpec spec) {
    this.spec = spec;
    this.limit = spec.limit();
    this.burst = spec.burst();
    this.unitNanos = chooseUnit(spec);
    this.periodUnits = spec.periodNanos() / unitNanos;
    this.intervalWhole = periodUnits / limit;
    this.intervalRemainder = periodUnits % limit;
    this.burstToleranceScaled = burst * periodUnits;
  }

  /**
   * The finest unit in which this rule's arithmetic cannot overflow, and which divides the period
   * exactly.
   */
  static long chooseUnit(LimitSpec spec) {
    for (long unit : ExactMath.UNITS) {
      if (spec.periodNanos() % unit != 0 && unit != 1L) {
        break;
      }
      long periodUnits = spec.periodNanos() / unit;
      if (periodUnits == 0) {
        break;
      }
      // (tat - now) * limit is at most (2 * burst) * periodUnits; fractions add less than limit.
      if (ExactMath.productFits(2 * spec.burst(), periodUnits) && ExactMath.productFits(spec.burst(), spec.limit())) {
        return unit;
      }
    }
    throw new IllegalArgumentException(
        "limit " + spec.limit() + ", burst " + spec.burst() + " and period are too large to"
            + " compute exactly; use a smaller burst or a shorter period");
  }


  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    long now = Math.floorDiv(nowNanos, unitNanos);

    // The bucket cannot be fuller than full: an old tat counts as now.
    long base;
    long baseFraction;
    if (state.tat < now) {
      base = now;
      baseFraction = 0;
    } else {
      base = state.tat;
      baseFraction = state.tatFraction;
    }

    if (cost > burst) {
      // More than the bucket can ever hold: never allowed. Retry-after is a back-off of one
      // period; reset still says when the bucket is full again.
      long resetUnits = ExactMath.ceilDiv((base - now) * limit + baseFraction, limit);
      verdict.refuse(
          tokensLeft(now, base, baseFraction), spec.periodNanos(), resetUnits * unitNanos);
      return;
    }

    // tat' = base + cost * T, kept exact as whole units plus a fraction over limit.
    long fractionSum = baseFraction + cost * intervalRemainder;
    long newTat = base + cost * intervalWhole + fractionSum / limit;
    long newFraction = fractionSum % limit;

    // Allowed when tat' - now <= burst * T; everything scaled by limit to stay in integers.
    long aheadScaled = (newTat - now) * limit + newFraction;
    long excessScaled = aheadScaled - burstToleranceScaled;
    if (excessScaled <= 0) {
      state.tat = newTat;
      state.tatFraction = newFraction;
      long remaining = -excessScaled / periodUnits;
      // The next token: tat' must fall back by what is missing of one more whole token.
      long toNextTokenScaled = periodUnits - (-excessScaled % periodUnits);
      verdict.allow(
          remaining,
          ExactMath.ceilDiv(aheadScaled, limit) * unitNanos,
          ExactMath.ceilDiv(toNextTokenScaled, limit) * unitNanos);
    } else {
      long retryUnits = ExactMath.ceilDiv(excessScaled, limit);
      long resetUnits = ExactMath.ceilDiv((base - now) * limit + baseFraction, limit);
      verdict.refuse(
          tokensLeft(now, base, baseFraction), retryUnits * unitNanos, resetUnits * unitNanos);
    }
  }

  /** Whole tokens in the bucket when tat = base (+ fraction). */
  private long tokensLeft(long now, long base, long baseFraction) {
    long leftScaled = burstToleranceScaled - ((base - now) * limit + baseFraction);
    return Math.max(0, leftScaled / periodUnits);
  }

  /**
   * Moves {@code tat} by {@code delta * T}: forward for an extra charge (at most until the bucket
   * is empty), back for a refund (never before now: the bucket is never fuller than full).
   */
  @Override
  public void adjust(State state, long nowNanos, long delta) {
    if (delta == 0) {
      return;
    }
    long now = Math.floorDiv(nowNanos, unitNanos);
    long cap = burstToleranceScaled;
    long ahead = state.tat < now ? 0 : (state.tat - now) * limit + state.tatFraction;
    long units = Math.min(Math.abs(delta), cap / periodUnits + 1);
    long next = delta > 0 ? Math.min(cap, ahead + units * periodUnits) : Math.max(0, ahead - units * periodUnits);
    if (delta > 0 && next <= ahead) {
      return; // already empty: nothing more to take
    }
    state.tat = now + next / limit;
    state.tatFraction = next % limit;
  }

  /** The tokens used stay used, against the new limit ({@link UsedTokens}). */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof TokenBucket)) {
      return null;
    }
    TokenBucket old = (TokenBucket) previous;
    State was = (State) previousState;
    long[] tat = new long[2];
    if (!UsedTokens.carry(
        was.tat, was.tatFraction, old.unitNanos, old.periodUnits, old.limit,
        old.burstToleranceScaled,
        nowNanos, unitNanos, periodUnits, limit, burstToleranceScaled, tat)) {
      return null;
    }
    State state = new State();
    state.tat = tat[0];
    state.tatFraction = tat[1];
    return state;
  }

  @Override
  public long idleNanosUntilFresh() {
    // From empty to full takes burst * T; one more unit covers the rounding.
    return ExactMath.ceilDiv(burstToleranceScaled, limit) * unitNanos + unitNanos;
  }

  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(limit, spec.periodNanos());
  }

  public LimitSpec spec() {
    return spec;
  }

  /** Nanoseconds per time unit of this bucket's arithmetic (1 unless the numbers are huge). */
  public long unitNanos() {
    return unitNanos;
  }

}
