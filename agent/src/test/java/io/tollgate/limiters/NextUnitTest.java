package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Verdict#nextUnitNanos}, the newest RateLimit draft's {@code t}: when one more unit of
 * quota is available than {@code remaining} says, per algorithm, to the nanosecond.
 *
 * <p>Each row is an algorithm, a script of requests ({@code 1}: a request of cost 1, {@code +10s}:
 * the clock moves on) and the next unit after its last, allowed, request. Every row then checks
 * that the value is exact: a request of {@code remaining + 1} units does not pass at once (it is
 * refused, or with GCRA's max-delay held) one nanosecond before it, and passes at once at it (a
 * refused request counts nothing, so the first try leaves the state as it was).
 */
class NextUnitTest {

  private static final long S = 1_000_000_000L;
  /** Midnight UTC, 2025-02-21: minutes and days start with the script. */
  private static final long T0 = 20_140L * 86_400 * S;

  static Stream<Arguments> rows() {
    return Stream.of(
        row("token bucket 3/1m: the next token", () -> tokenBucket(3, 60, 3), "1", 20 * S),
        row("token bucket 3/1m, emptied", () -> tokenBucket(3, 60, 3), "1 1 1", 20 * S),
        row("token bucket 3/1m, part of a token back", () -> tokenBucket(3, 60, 3), "1 +5s 1",
            15 * S),
        row("token bucket 7/1m: a token every 8.571428571... s, rounded up",
            () -> tokenBucket(7, 60, 7), "1", 8_571_428_572L),
        row("token bucket 7/1m, two taken: the first token back is still the nearest",
            () -> tokenBucket(7, 60, 7), "1 1", 8_571_428_572L),
        row("token bucket with burst 10 of 1/s", () -> tokenBucket(1, 1, 10), "1 1 1 +300ms 1",
            700_000_000L),
        row("gcra 3/1m", () -> new Gcra(LimitSpec.of(3, 60 * S)), "1 1", 20 * S),
        row("gcra 6/1m with max-delay 10s: a held request, a unit at once again after delay + T",
            () -> new Gcra(LimitSpec.of(6, 60 * S), 10 * S), "1 1 1 1 1 1 1", 20 * S),
        row("fixed window 3/1m: the window's end", () -> fixed(3, 60), "+15s 1", 45 * S),
        row("calendar day in UTC: midnight", () -> new CalendarQuota(3, CalendarQuota.Unit.DAY,
            ZoneOffset.UTC), "+15s 1", 86_400 * S - 15 * S),
        row("sliding window 3/1m, all in this window: 20 s into the next",
            () -> sliding(3, 60), "1 1 1", 80 * S),
        row("sliding window 3/1m, two of three: half way into the next",
            () -> sliding(3, 60), "1 1", 90 * S),
        row("sliding window 3/1m, the previous window's weight falling: later in this window",
            () -> sliding(3, 60), "1 1 +70s 1", 20 * S),
        row("sliding log 3/1m: the oldest entry a minute old", () -> log(3, 60),
            "1 +10s 1 +10s 1", 40 * S),
        row("sliding log 3/1m, one free: still the oldest", () -> log(3, 60), "1 +25s 1", 35 * S));
  }

  static Arguments row(
      String title, Supplier<RateLimitAlgorithm<?>> algorithm, String script, long expected) {
    return Arguments.of(title, algorithm, script, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void theNextUnitIsExact(
      String title, Supplier<RateLimitAlgorithm<?>> algorithm, String script, long expected) {
    run(algorithm.get(), script, expected);
  }

  private static <S> void run(RateLimitAlgorithm<S> algorithm, String script, long expected) {
    S state = algorithm.newState();
    long now = T0;
    Verdict verdict = new Verdict();
    for (String step : script.trim().split(" +")) {
      if (step.startsWith("+")) {
        now += io.tollgate.config.Durations.parseNanos(step.substring(1));
      } else {
        algorithm.decide(state, now, Long.parseLong(step), verdict);
        assertTrue(verdict.allowed, step + " at +" + (now - T0) + "ns: " + verdict);
      }
    }
    assertEquals(expected, verdict.nextUnitNanos, "next unit of " + verdict);
    assertTrue(verdict.nextUnitNanos <= verdict.resetNanos, "no later than the reset");

    long more = verdict.remaining + 1;
    Verdict probe = new Verdict();
    algorithm.decide(state, now + expected - 1, more, probe);
    assertFalse(probe.allowed && probe.delayNanos == 0, more + " units 1 ns before: " + probe);
    if (probe.allowed) {
      return; // held, and so counted: the state has moved on
    }
    algorithm.decide(state, now + expected, more, probe);
    assertTrue(probe.allowed && probe.delayNanos == 0, more + " units at the next unit: " + probe);
  }

  private static RateLimitAlgorithm<?> tokenBucket(long limit, long seconds, long burst) {
    return new TokenBucket(new LimitSpec(limit, seconds * S, burst));
  }

  private static RateLimitAlgorithm<?> fixed(long limit, long seconds) {
    return new FixedWindow(LimitSpec.of(limit, seconds * S));
  }

  private static RateLimitAlgorithm<?> sliding(long limit, long seconds) {
    return new SlidingWindow(LimitSpec.of(limit, seconds * S));
  }

  private static RateLimitAlgorithm<?> log(long limit, long seconds) {
    return new SlidingLog(LimitSpec.of(limit, seconds * S));
  }
}
