package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.T0;
import static io.tollgate.limiters.Step.allow;
import static io.tollgate.limiters.Step.refuse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(
            "burst 10 refilled at 5/s: 12 requests 10 ms apart, then one 1 s after the last",
            new LimitSpec(5, S, 10),
            Arrays.asList(
                allow(0, 1, 9), allow(10, 1, 8), allow(20, 1, 7), allow(30, 1, 6),
                allow(40, 1, 5), allow(50, 1, 4), allow(60, 1, 3), allow(70, 1, 2),
                allow(80, 1, 1), allow(90, 1, 0),
                refuse(100, 1, 0, 100 * MS), refuse(110, 1, 0, 90 * MS),
                allow(1110, 1, 4))),
        Arguments.of(
            "1/s, burst 1: the next token comes exactly 1 s after the last",
            new LimitSpec(1, S, 1),
            Arrays.asList(
                allow(0, 1, 0), refuse(999, 1, 0, MS), allow(1000, 1, 0),
                refuse(1000, 1, 0, S), refuse(1500, 1, 0, 500 * MS), allow(2000, 1, 0))),
        Arguments.of(
            "10/s: refill is continuous, one token per 100 ms, fractions carried",
            new LimitSpec(10, S, 10),
            Arrays.asList(
                allow(0, 10, 0), refuse(50, 1, 0, 50 * MS), allow(100, 1, 0),
                allow(350, 1, 1), allow(350, 1, 0), refuse(350, 1, 0, 50 * MS),
                allow(400, 1, 0),
                // 1.4 s later the bucket is full again, and no fuller
                allow(5000, 1, 9))),
        Arguments.of(
            "cost > 1 takes several tokens; refused until that many are back",
            new LimitSpec(10, S, 10),
            Arrays.asList(
                allow(0, 4, 6), allow(0, 6, 0), refuse(0, 1, 0, 100 * MS),
                refuse(0, 3, 0, 300 * MS), allow(250, 2, 0), refuse(250, 5, 0, 450 * MS),
                allow(700, 5, 0))),
        Arguments.of(
            "cost > burst is never allowed: refused with a period to wait, bucket untouched",
            new LimitSpec(10, S, 10),
            Arrays.asList(
                refuse(0, 11, 10, S), allow(0, 10, 0), refuse(0, 11, 0, S),
                refuse(1000, 11, 10, S))),
        Arguments.of(
            "a period not divisible by the limit: tokens come back at k * 60/7 s exactly",
            new LimitSpec(7, 60 * S, 2),
            Arrays.asList(
                Step.allowNanos(0, 1, 1),
                Step.allowNanos(0, 1, 0),
                // token 1 at 8571428571.43 ns
                Step.refuseNanos(8_571_428_571L, 1, 0, 1),
                Step.allowNanos(8_571_428_572L, 1, 0),
                // token 2 at 17142857142.86 ns: no fraction lost on the way
                Step.refuseNanos(17_142_857_142L, 1, 0, 1),
                Step.allowNanos(17_142_857_143L, 1, 0))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void spec(String name, LimitSpec spec, List<Step> steps) {
    Step.play(new TokenBucket(spec), steps);
  }

  @Test
  void noDriftOverOneHundredMinutesOfSteadyTraffic() {
    // 7 per minute, burst 7, a request every 10 ms for 100 minutes: the bucket is never full
    // after the start, so each minute gets exactly the 7 tokens that came back in it.
    TokenBucket bucket = new TokenBucket(new LimitSpec(7, 60 * S, 7));
    TokenBucket.State state = bucket.newState();
    Verdict verdict = new Verdict();
    long[] perMinute = new long[100];
    for (long t = 0; t < 100 * 60 * S; t += 10 * MS) {
      bucket.decide(state, T0 + t, 1, verdict);
      if (verdict.allowed) {
        perMinute[(int) (t / (60 * S))]++;
      }
    }
    // the first minute also hands out the full bucket
    assertEquals(7 + 6, perMinute[0]);
    for (int minute = 1; minute < 100; minute++) {
      assertEquals(7, perMinute[minute], "minute " + minute);
    }
    // and the bucket's tat is exactly 706 intervals after the start: 706 * 60/7 s
    // = 6051428571428 4/7 ns
    assertEquals(T0 + 6_051_428_571_428L, state.tat());
    assertEquals(4, state.tatFraction());
  }

  @Test
  void noDriftWithAFullBurstEither() {
    // burst 7: the first minute also hands out the initial bucket, then exactly 7 a minute.
    TokenBucket bucket = new TokenBucket(new LimitSpec(7, 60 * S, 7));
    TokenBucket.State state = bucket.newState();
    Verdict verdict = new Verdict();
    long allowed = 0;
    long end = 100 * 60 * S;
    for (long t = 0; t <= end; t += 10 * MS) {
      bucket.decide(state, T0 + t, 1, verdict);
      if (verdict.allowed) {
        allowed++;
      }
    }
    // 7 in the bucket at the start, plus one token every 60/7 s: 700 by the end, inclusive.
    assertEquals(7 + 700, allowed);
  }

  @Test
  void hugeNumbersCoarsenTheTimeUnitAndStayExactInIt() {
    long day = TimeUnit.DAYS.toNanos(1);
    TokenBucket bucket = new TokenBucket(new LimitSpec(10_000_000, day, 10_000_000));
    // nanoseconds and microseconds would overflow (2 * burst * period > 2^60)
    assertEquals(1_000_000L, bucket.unitNanos());
    Step.play(
        bucket,
        Arrays.asList(
            allow(0, 10_000_000, 0),
            // a token takes 8.64 ms; the arithmetic is in whole milliseconds, so 9 ms
            refuse(0, 1, 0, 9 * MS),
            allow(9, 1, 0),
            refuse(9, 1, 0, 9 * MS)));
    assertEquals(1L, new TokenBucket(new LimitSpec(5, S, 10)).unitNanos());
  }

  @Test
  void numbersTooLargeForAnyUnitAreRejectedAtConstruction() {
    long year = TimeUnit.DAYS.toNanos(365);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TokenBucket(new LimitSpec(1L << 40, year, 1L << 40)));
    assertEquals(true, e.getMessage().contains("too large"), e.getMessage());
  }

  @Test
  void idleForIdleNanosUntilFreshIsAFullBucket() {
    TokenBucket bucket = new TokenBucket(new LimitSpec(7, 60 * S, 10));
    TokenBucket.State state = bucket.newState();
    Verdict verdict = new Verdict();
    for (int i = 0; i < 10; i++) {
      bucket.decide(state, T0, 1, verdict);
    }
    bucket.decide(state, T0 + bucket.idleNanosUntilFresh(), 10, verdict);
    assertEquals(true, verdict.allowed);
    assertEquals(0, verdict.remaining);
    assertEquals(new QuotaPolicy(7, 60).quota(), bucket.policy().quota());
    assertEquals(60, bucket.policy().windowSeconds());
  }
}
