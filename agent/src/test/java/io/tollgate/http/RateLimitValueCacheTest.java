package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The cached RateLimit value is the one a builder would make, for any units and seconds. */
class RateLimitValueCacheTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "9, 1",
    "10, 60",
    "41, 30",
    "999999999, 1",
    "1000000000, 86400",
    "9223372036854775807, 9223372036854775807",
    "17, 0",
    "-1, 5",
  })
  void theValueIsThePrefixTheUnitsAndTheSeconds(long remaining, long seconds) {
    String prefix = RateLimitHeaders.rateLimitPrefix("per-ip");
    RateLimitValueCache cache = new RateLimitValueCache(prefix);
    // fill the slots with other pairs first, so that a wrong hit would show
    for (long r = 0; r < 40; r++) {
      cache.value(r, 7);
    }
    String expected = prefix + remaining + ";t=" + seconds;
    assertEquals(expected, cache.value(remaining, seconds));
    assertEquals(expected, cache.value(remaining, seconds), "again");
    if (remaining >= 0) {
      assertSame(cache.value(remaining, seconds), cache.value(remaining, seconds), "kept");
      assertSame(cache.header(remaining, seconds), cache.header(remaining, seconds), "kept");
    }
    // the bytes a module copies into its response are the value's
    assertArrayEquals(expected.getBytes(StandardCharsets.US_ASCII),
        cache.header(remaining, seconds).printableAscii());
  }
}
