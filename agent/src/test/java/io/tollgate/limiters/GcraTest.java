package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.T0;
import static io.tollgate.limiters.Step.allow;
import static io.tollgate.limiters.Step.delayed;
import static io.tollgate.limiters.Step.refuse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GcraTest {

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(
            "burst 10 at 5/s without max-delay: the token bucket's numbers exactly",
            new Gcra(new LimitSpec(5, S, 10)),
            Arrays.asList(
                allow(0, 1, 9), allow(10, 1, 8), allow(20, 1, 7), allow(30, 1, 6),
                allow(40, 1, 5), allow(50, 1, 4), allow(60, 1, 3), allow(70, 1, 2),
                allow(80, 1, 1), allow(90, 1, 0),
                refuse(100, 1, 0, 100 * MS), refuse(110, 1, 0, 90 * MS),
                allow(1110, 1, 4))),
        Arguments.of(
            "10/s, burst 1, max-delay 500 ms: excess requests are paced 100 ms apart",
            new Gcra(new LimitSpec(10, S, 1), 500 * MS),
            Arrays.asList(
                allow(0, 1, 0),
                delayed(0, 1, 0, 100 * MS), delayed(0, 1, 0, 200 * MS),
                delayed(0, 1, 0, 300 * MS), delayed(0, 1, 0, 400 * MS),
                delayed(0, 1, 0, 500 * MS),
                // a 600 ms wait is over max-delay: refused until the wait is back to 500 ms
                refuse(0, 1, 0, 100 * MS), refuse(50, 1, 0, 50 * MS),
                delayed(100, 1, 0, 500 * MS),
                // 1.5 s later the schedule is clear again
                allow(1600, 1, 0), delayed(1600, 1, 0, 100 * MS))),
        Arguments.of(
            "burst 3 at 1/s: refusals count what is left and when one comes back",
            new Gcra(new LimitSpec(1, S, 3)),
            Arrays.asList(
                allow(0, 1, 2), allow(0, 1, 1), allow(0, 1, 0), refuse(0, 1, 0, S),
                refuse(400, 2, 0, 1600 * MS), allow(2000, 2, 0), refuse(2000, 1, 0, S))),
        Arguments.of(
            "cost beyond burst + max-delay/T can never pass; up to it, it is delayed",
            new Gcra(new LimitSpec(10, S, 1), 500 * MS),
            Arrays.asList(
                refuse(0, 7, 1, S), delayed(0, 6, 0, 500 * MS), refuse(0, 1, 0, 100 * MS))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void spec(String name, Gcra gcra, List<Step> steps) {
    Step.play(gcra, steps);
  }

  @Test
  void withoutMaxDelayDecidesExactlyAsTheTokenBucket() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      LimitSpec spec =
          new LimitSpec(1 + random.nextInt(20), (1 + random.nextInt(5000)) * MS, 1 + random.nextInt(30));
      Gcra gcra = new Gcra(spec);
      TokenBucket bucket = new TokenBucket(spec);
      Gcra.State g = gcra.newState();
      TokenBucket.State b = bucket.newState();
      Verdict vg = new Verdict();
      Verdict vb = new Verdict();
      long now = T0;
      for (int i = 0; i < 300; i++) {
        now += random.nextInt(3) == 0 ? 0 : (long) random.nextInt((int) (spec.periodNanos() / MS)) * MS / 3;
        long cost = 1 + random.nextInt(4);
        gcra.decide(g, now, cost, vg);
        bucket.decide(b, now, cost, vb);
        assertEquals(vb.toString(), vg.toString(), "seed " + seed + " spec " + spec + " step " + i);
      }
      assertEquals(bucket.idleNanosUntilFresh(), gcra.idleNanosUntilFresh());
    }
  }

  @Test
  void hugeNumbersCoarsenTheUnitAndTooHugeAreRejected() {
    long day = 86_400L * S;
    Gcra gcra = new Gcra(new LimitSpec(10_000_000, day, 10_000_000), day);
    assertEquals(1_000_000L, gcra.unitNanos());
    assertEquals(day, gcra.maxDelayNanos());
    assertEquals(1L, new Gcra(new LimitSpec(5, S, 10), 10 * S).unitNanos());
    assertThrows(
        IllegalArgumentException.class,
        () -> new Gcra(new LimitSpec(1L << 40, 365 * day, 1L << 40)));
    assertThrows(
        IllegalArgumentException.class, () -> new Gcra(new LimitSpec(1L << 40, S, 1), Long.MAX_VALUE));
  }

  @Test
  void maxDelayMustNotBeNegative() {
    assertThrows(IllegalArgumentException.class, () -> new Gcra(LimitSpec.of(1, S), -1));
  }

  @Test
  void idleForIdleNanosUntilFreshIsBackOnSchedule() {
    Gcra gcra = new Gcra(new LimitSpec(10, S, 2), 700 * MS);
    Gcra.State state = gcra.newState();
    Verdict verdict = new Verdict();
    for (int i = 0; i < 20; i++) {
      gcra.decide(state, T0, 1, verdict);
    }
    gcra.decide(state, T0 + gcra.idleNanosUntilFresh(), 2, verdict);
    assertEquals("allowed remaining=0 retryAfterNanos=0 resetNanos=200000000", verdict.toString());
    assertEquals(700 * MS, gcra.maxDelayNanos());
    assertEquals(10, gcra.policy().quota());
    assertEquals(1, gcra.policy().windowSeconds());
  }
}
