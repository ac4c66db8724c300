package io.tollgate.limiters;

/**
 * Division by one fixed positive number (a rule's limit, its period in units), exact, by a
 * multiplication with its reciprocal worked out once: for the quotients an algorithm takes on
 * every decision, where a 64-bit division instruction costs several times a multiplication and the
 * JIT cannot make a multiplication of a division by a field, as it does for a constant.
 *
 * <p>Why it is exact: {@code m = floor((2^63 - 1) / d)} lies within one of {@code 2^63 / d}, so for
 * {@code 0 <= n < 2^62} the estimate {@code floor(n * m / 2^63)} (the 128-bit product's bits from
 * the 63rd up) is the true quotient or one less; one comparison of the remainder corrects it.
 * {@code ExactDivisorTest} checks it against {@code /} and {@code %} at the edges of every
 * divisor's multiples and over random values of the whole range.
 */
final class ExactDivisor {

  /** The largest dividend divided exactly: {@code 2^62 - 1}, above {@link ExactMath#MAX_SCALED}. */
  static final long MAX_DIVIDEND = (1L << 62) - 1;

  private final long divisor;
  private final long reciprocal;

  ExactDivisor(long divisor) {
    if (divisor <= 0) {
      throw new IllegalArgumentException("divisor must be positive: " + divisor);
    }
    this.divisor = divisor;
    this.reciprocal = Long.MAX_VALUE / divisor;
  }

  /** {@code n / divisor}, for {@code 0 <= n <= MAX_DIVIDEND}. */
  long quotient(long n) {
    long estimate = (Math.multiplyHigh(n, reciprocal) << 1) | ((n * reciprocal) >>> 63);
    return n - estimate * divisor >= divisor ? estimate + 1 : estimate;
  }

  /** {@code n / divisor} rounded up, for {@code 0 <= n <= MAX_DIVIDEND}. */
  long ceilQuotient(long n) {
    long q = quotient(n);
    return n - q * divisor > 0 ? q + 1 : q;
  }

  long divisor() {
    return divisor;
  }
}
