package io.tollgate.limiters;

/**
 * The integer arithmetic the algorithms share: every quantity they compute is exact, so their
 * results can be compared with a reference model, and with the Redis scripts, to the unit.
 */
public final class ExactMath {

  /** Headroom for scaled times and sums of them: well inside {@code Long.MAX_VALUE}. */
  static final long MAX_SCALED = 1L << 60;

  /** The time units an algorithm may count in, finest first: ns, µs, ms, s. */
  static final long[] UNITS = {1L, 1_000L, 1_000_000L, 1_000_000_000L};

  private ExactMath() {}

  /** {@code a / b} rounded up (towards positive infinity), for {@code b > 0}. */
  public static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /** Whether {@code a * b} of two positive numbers stays within {@link #MAX_SCALED}. */
  static boolean productFits(long a, long b) {
    return a > 0 && b > 0 && a <= MAX_SCALED / b;
  }
}
