package io.tollgate.limiters;

/**
 * The {@code token-bucket} algorithm (the default): a bucket of {@code burst} tokens refilled
 * continuously at {@code limit/period}, which is {@link Gcra} without max-delay. A request of cost
 * {@code c} takes {@code c} tokens or is refused and takes nothing; its retry-after is the exact
 * time until enough tokens are back, its reset when the bucket is full again. The arithmetic, the
 * state ({@code tat}, {@code tatFraction}) and the Redis script ({@code gcra.lua}) are
 * {@link Gcra}'s.
 *
 * <p>Choose it for rates: "5 a minute" that tolerates a short burst of {@code burst} after a quiet
 * spell, with no window boundaries and two longs of state per key. Over a long time at most {@code
 * burst + elapsed * limit / period} units pass; a client that keeps a full bucket can spend {@code
 * burst} and then {@code limit} per period, so stack a short rule under a long one when both
 * matter. Choose {@code gcra} for pacing with max-delay, or to read the limit as "one every T".
 *
 * <p>What it keeps apart from {@code gcra} is its name (in the rules file, and in its Redis keys)
 * and its rule for the time unit ({@link #chooseUnit}), which is not {@code gcra}'s without
 * max-delay: a bucket keeps counting in the unit it always has, so that its decisions, to the
 * nanosecond, and its Redis keys (whose {@code p} field names the unit) stay what they were.
 */
public final class TokenBucket extends Gcra {

  public TokenBucket(LimitSpec spec) {
    super(spec, 0, chooseUnit(spec));
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
  public AlgorithmKind kind() {
    return AlgorithmKind.TOKEN_BUCKET;
  }

  @Override
  public TokenBucket withSpec(LimitSpec spec) {
    return new TokenBucket(spec);
  }
}
