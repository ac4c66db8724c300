package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The quota headers' seconds: nanoseconds rounded up to whole seconds, never early. */
class RateLimitHeadersSecondsTest {

  @ParameterizedTest(name = "{0} ns -> {1} s")
  @CsvSource({
    "-1000000000,          0", // nothing to wait for
    "-1,                   0",
    "0,                    0",
    "1,                    1", // any wait at all is a whole second
    "999999999,            1",
    "1000000000,           1", // exactly one second is one
    "1000000001,           2",
    "59999999999,         60",
    "60000000000,         60",
    "60000000001,         61",
    "9223372036854775807, 9223372037", // Long.MAX_VALUE, no overflow
  })
  void roundsUpToWholeSeconds(long nanos, long seconds) {
    assertEquals(seconds, RateLimitHeaders.ceilSeconds(nanos));
  }

  @Test
  void agreesWithExactDivisionRoundedUpAroundEverySecondBoundary() {
    BigInteger billion = BigInteger.valueOf(1_000_000_000L);
    for (long s = 0; s < 2_000; s += 7) {
      for (long delta = -2; delta <= 2; delta++) {
        long nanos = s * 1_000_000_000L + delta;
        if (nanos <= 0) {
          continue;
        }
        BigInteger[] qr = BigInteger.valueOf(nanos).divideAndRemainder(billion);
        long expected = qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
        assertEquals(expected, RateLimitHeaders.ceilSeconds(nanos), nanos + " ns");
      }
    }
  }
}
