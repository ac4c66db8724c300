package io.tollgate.limiters;

/**
 * How a reload carries the token bucket's and GCRA's state over to changed parameters (limit,
 * period, burst, max-delay): the tokens a key has used stay used, counted against the new limit
 * (Bucket4j's {@code TokensInheritanceStrategy.ADDITIVE}: what is available changes by as much as
 * the capacity does), as the counting algorithms keep their counts.
 *
 * <p>Their state is a time, {@code tat}: it runs ahead of now by the time the tokens used take to
 * come back. Kept as a time, it would not keep the tokens: with a longer period (100 a minute to
 * 100 an hour) a client that had used the minute's 100 would be 1.7 tokens into the hour's, with
 * 98 left. Kept as tokens, it has used 100 of the hour's 100. A token on its way back counts as
 * used: {@code used = ceil((tat - now) / T)}, then {@code tat' = now + used * T'}, held to the most
 * the new parameters let {@code tat} run ahead.
 *
 * <p>Exact, as {@code gcra.lua} (common.lua's {@code carry_used}) computes it from the parameters a
 * key's state was written with.
 */
final class UsedTokens {

  private UsedTokens() {}

  /**
   * The new state's {@code tat} and {@code tatFraction} ({@code into[0]}, {@code into[1]}) for an
   * old state ({@code tat}, {@code fraction} in units of {@code unit} ns and fractions of {@code
   * 1/limit}, its period {@code periodUnits} in those units), at {@code nowNanos}; false when the
   * old state has used nothing (the key starts afresh).
   *
   * @param newCapScaled the most the new {@code tat} may run ahead of now, scaled by {@code
   *     newLimit}
   */
  static boolean carry(
      long tat, long fraction, long unit, long periodUnits, long limit, long capScaled,
      long nowNanos, long newUnit, long newPeriodUnits, long newLimit, long newCapScaled,
      long[] into) {
    long now = Math.floorDiv(nowNanos, unit);
    if (tat < now || (tat == now && fraction == 0)) {
      return false;
    }
    long aheadScaled = Math.min(capScaled, (tat - now) * limit + fraction);
    long used = ExactMath.ceilDiv(aheadScaled, periodUnits);
    // More than the new bucket holds is as good as full: bounds the product below.
    used = Math.min(used, newCapScaled / newPeriodUnits + 1);
    long newAheadScaled = Math.min(newCapScaled, used * newPeriodUnits);
    into[0] = Math.floorDiv(nowNanos, newUnit) + newAheadScaled / newLimit;
    into[1] = newAheadScaled % newLimit;
    return true;
  }
}
