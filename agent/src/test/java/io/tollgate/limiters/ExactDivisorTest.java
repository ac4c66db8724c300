package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Division by multiplication must give exactly what {@code /} gives, and the rounded-up quotient
 * exactly what {@link ExactMath#ceilDiv} gives, for every dividend from 0 to {@link
 * ExactDivisor#MAX_DIVIDEND}: checked where an estimate one short would show (each side of the
 * divisor's multiples, small and near the top of the range) and over random dividends.
 *
 * <p>The divisors: the smallest, small primes, the limits and periods in units that rules have
 * (a period of a minute in nanoseconds, the benchmarks' 10^9 a second counted in microseconds),
 * powers of two and their neighbours (where a reciprocal is exact or just not), and the largest.
 */
class ExactDivisorTest {

  private static final long MAX = ExactDivisor.MAX_DIVIDEND;

  @ParameterizedTest
  @ValueSource(longs = {
      1, 2, 3, 5, 7, 10, 60, 100, 1_000, 1_000_000, 1_000_000_000L, 60_000_000_000L,
      86_400_000_000_000L, 8_571_428_571L, (1L << 31) - 1, 1L << 31, (1L << 32) + 1,
      (1L << 40) + 3, (1L << 59) - 1, 1L << 60, (1L << 61) + 1, (1L << 62) - 1, 1L << 62,
      Long.MAX_VALUE / 3, Long.MAX_VALUE - 1, Long.MAX_VALUE})
  void givesWhatDivisionGives(long divisor) {
    ExactDivisor by = new ExactDivisor(divisor);
    edgesOfMultiples(divisor).forEach(n -> assertQuotients(by, divisor, n));
    Random random = new Random(divisor);
    for (int i = 0; i < 200_000; i++) {
      long n = random.nextLong() & MAX; // uniform over the whole range
      assertQuotients(by, divisor, n);
      assertQuotients(by, divisor, n >>> random.nextInt(62)); // and over every magnitude
    }
  }

  @Test
  void refusesADivisorThatIsNotPositive() {
    assertThrows(IllegalArgumentException.class, () -> new ExactDivisor(0));
    assertThrows(IllegalArgumentException.class, () -> new ExactDivisor(-7));
  }

  /** 0, the range's top, and each side of the first and the last few multiples in range. */
  private static LongStream edgesOfMultiples(long divisor) {
    long top = MAX / divisor;
    return LongStream.concat(
            LongStream.of(0, 1, MAX - 1, MAX),
            LongStream.concat(LongStream.rangeClosed(0, 4), LongStream.rangeClosed(top - 4, top))
                .filter(k -> k >= 0 && k <= top)
                .flatMap(k -> LongStream.of(k * divisor - 1, k * divisor, k * divisor + 1)))
        .filter(n -> n >= 0 && n <= MAX);
  }

  private static void assertQuotients(ExactDivisor by, long divisor, long n) {
    assertEquals(n / divisor, by.quotient(n), () -> n + " / " + divisor);
    assertEquals(ExactMath.ceilDiv(n, divisor), by.ceilQuotient(n), () -> n + " / " + divisor + " rounded up");
  }
}
