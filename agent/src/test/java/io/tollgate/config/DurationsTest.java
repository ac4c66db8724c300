package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest(name = "{0} = {1} ns")
  @CsvSource({
    "1ns,          1",
    "250us,        250000",
    "500ms,        500000000",
    "10s,          10000000000",
    "1m,           60000000000",
    "90m,          5400000000000",
    "1h,           3600000000000",
    "1d,           86400000000000",
    "0s,           0",
    "' 2s ',       2000000000",
  })
  void parsesAmountAndUnit(String text, long nanos) {
    assertEquals(nanos, Durations.parseNanos(text));
  }

  @ParameterizedTest(name = "''{0}'' is refused")
  @ValueSource(
      strings = {"", "s", "10", "10 s", "1.5s", "-1s", "+1s", "1S", "1sec", "1min", "1w", "PT1M",
        "99999999999999999999d", "106752d"})
  void refusesAnythingElse(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Durations.parseNanos(text));
    assertTrue(e.getMessage().contains(text.trim()), e.getMessage());
  }

  @ParameterizedTest(name = "{0} ns formats as {1}")
  @CsvSource({
    "0,                 0s",
    "1,                 1ns",
    "1500,              1500ns",
    "250000,            250us",
    "500000000,         500ms",
    "1500000000,        1500ms",
    "60000000000,       1m",
    "90000000000,       90s",
    "3600000000000,     1h",
    "86400000000000,    1d",
    "172800000000000,   2d",
  })
  void formatsInTheLargestExactUnit(long nanos, String text) {
    assertEquals(text, Durations.format(nanos));
    assertEquals(nanos, Durations.parseNanos(text), "format is the inverse of parse");
  }

  /** A limit prints as the rules file writes it, its burst only when it is not the limit. */
  @ParameterizedTest(name = "{0}/{1} ns burst {2} prints as {3}")
  @CsvSource({
    "10, 60000000000,   10, 10/1m",
    "10, 60000000000,   20, 10/1m burst 20",
    "5,  500000000,     1,  5/500ms burst 1",
  })
  void formatsALimitInTheFilesUnits(long limit, long periodNanos, long burst, String text) {
    assertEquals(text, Durations.format(new io.tollgate.limiters.LimitSpec(limit, periodNanos, burst)));
  }
}
