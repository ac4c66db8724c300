package io.tollgate.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How long a partner's answer asks callers to wait, in seconds (0: it asks nothing). */
class PartnerWaitTest {

  /** 2026-12-05T10:00:00Z, the "now" of the HTTP-date cases. */
  private static final long NOW_MILLIS = 1_796_464_800_000L;

  static Stream<Arguments> answers() {
    return Stream.of(
        Arguments.of(429, "Retry-After: 2", 2),
        Arguments.of(503, "Retry-After: 120", 120),
        Arguments.of(429, "Retry-After: Sat, 05 Dec 2026 10:00:30 GMT", 30),
        Arguments.of(429, "Retry-After: Sat, 05 Dec 2026 09:00:00 GMT", 0),
        Arguments.of(429, "Retry-After: soon", 0),
        Arguments.of(429, "Retry-After: -5", 0),
        Arguments.of(200, "Retry-After: 2", 0),
        Arguments.of(500, "Retry-After: 2", 0),
        Arguments.of(429, "", 0),
        Arguments.of(200, "RateLimit: \"default\";r=0;t=7", 7),
        Arguments.of(200, "RateLimit: \"default\";r=3;t=7", 0),
        Arguments.of(200, "RateLimit: limit=10, remaining=0, reset=4", 4),
        Arguments.of(200, "RateLimit: limit=10, remaining=1, reset=4", 0),
        Arguments.of(200, "RateLimit-Remaining: 0|RateLimit-Reset: 9", 9),
        Arguments.of(200, "RateLimit-Remaining: 2|RateLimit-Reset: 9", 0),
        Arguments.of(429, "Retry-After: 3|RateLimit: \"default\";r=0;t=7", 3));
  }

  @ParameterizedTest(name = "{0} {1}: {2} s")
  @MethodSource("answers")
  void asksToWait(int status, String headers, long seconds) {
    Map<String, String> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String field : headers.split("\\|")) {
      if (!field.isEmpty()) {
        fields.put(field.substring(0, field.indexOf(':')), field.substring(field.indexOf(':') + 1));
      }
    }
    assertEquals(seconds,
        TimeUnit.NANOSECONDS.toSeconds(PartnerWait.nanos(status, fields::get, NOW_MILLIS)));
  }
}
