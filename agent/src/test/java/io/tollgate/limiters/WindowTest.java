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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Fixed and sliding windows: their specs side by side, and the boundary burst that tells them apart. */
class WindowTest {

  static Stream<Arguments> fixedWindow() {
    return Stream.of(
        Arguments.of(
            "3 per second: counted per epoch-aligned second, retry when the window ends",
            0L,
            Arrays.asList(
                allow(0, 1, 2), allow(500, 2, 0), refuse(999, 1, 0, MS), allow(1000, 3, 0),
                refuse(1200, 1, 0, 800 * MS),
                // more than the limit can never pass: a period's back-off
                refuse(1200, 4, 0, S),
                allow(5000, 1, 2))),
        Arguments.of(
            "windows are aligned to the epoch, not to the key's first request",
            250 * MS,
            Arrays.asList(
                allow(0, 3, 0), refuse(100, 1, 0, 650 * MS), allow(750, 1, 2))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixedWindow")
  void fixedWindowSpec(String name, long startOffset, List<Step> steps) {
    Step.play(new FixedWindow(LimitSpec.of(3, S)), T0 + startOffset, steps);
  }

  static Stream<Arguments> slidingWindow() {
    return Stream.of(
        Arguments.of(
            "10 per second: the previous window weighs less as this one goes on",
            Arrays.asList(
                allow(0, 10, 0),
                // next window, elapsed 0: 10 * 1 + 1 > 10; at 100 ms, 10 * 0.9 + 1 = 10
                refuse(1000, 1, 0, 100 * MS),
                allow(1100, 1, 0),
                refuse(1100, 1, 0, 100 * MS),
                // 10 * 0.45 + 2 = 6.5: 3 whole units left
                allow(1550, 1, 3),
                refuse(1550, 4, 3, 50 * MS),
                // 10 * 0.001 + 2 = 2.01: 7 fit, leaving 0.99
                allow(1999, 7, 0),
                // nothing more fits in this window; at the next one, 9 * 1 + 1 = 10
                refuse(1999, 1, 0, MS),
                allow(2000, 1, 0))),
        Arguments.of(
            "a retry that must wait into the next window, part way",
            Arrays.asList(
                allow(0, 10, 0),
                // 10 * (1 - e) + 5 <= 10 from e = 0.5 in the next window
                refuse(999, 5, 0, 501 * MS),
                refuse(1499, 5, 4, MS), // 5.01 used: 4 whole units free, not 5
                allow(1500, 5, 0))),
        Arguments.of(
            "two idle windows forget everything; cost > limit never passes",
            Arrays.asList(
                allow(0, 10, 0), allow(2000, 10, 0), refuse(4000, 11, 10, S),
                allow(4000, 1, 9))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("slidingWindow")
  void slidingWindowSpec(String name, List<Step> steps) {
    Step.play(new SlidingWindow(LimitSpec.of(10, S)), steps);
  }

  /** 100 per minute; 100 requests at 59.9 s and 100 at 60.1 s (T0 is a whole minute). */
  private static <S> long boundaryBurst(RateLimitAlgorithm<S> algorithm) {
    S state = algorithm.newState();
    Verdict verdict = new Verdict();
    long allowed = 0;
    for (int i = 0; i < 100; i++) {
      algorithm.decide(state, T0 + 59_900 * MS, 1, verdict);
      allowed += verdict.allowed ? 1 : 0;
    }
    for (int i = 0; i < 100; i++) {
      algorithm.decide(state, T0 + 60_100 * MS, 1, verdict);
      allowed += verdict.allowed ? 1 : 0;
    }
    return allowed;
  }

  @Test
  void fixedWindowLetsTwiceTheLimitThroughAcrossABoundary() {
    assertEquals(200, boundaryBurst(new FixedWindow(LimitSpec.of(100, 60 * S))));
  }

  @Test
  void slidingWindowDoesNot() {
    assertEquals(100, boundaryBurst(new SlidingWindow(LimitSpec.of(100, 60 * S))));
  }

  @Test
  void slidingWindowCoarsensItsUnitForHugeNumbers() {
    long day = TimeUnit.DAYS.toNanos(1);
    SlidingWindow window = new SlidingWindow(LimitSpec.of(10_000_000, day));
    assertEquals(1_000_000L, window.unitNanos());
    assertEquals(1L, new SlidingWindow(LimitSpec.of(100, 60 * S)).unitNanos());
    // a day is whole days since the epoch: start at midnight UTC
    long midnight = Math.floorDiv(T0, day) * day;
    Step.play(
        window,
        midnight,
        Arrays.asList(
            allow(0, 10_000_000, 0),
            refuse(day / MS, 1, 0, 9 * MS), // 1e7 * (1 - e/day) <= 1e7 - 1 from e = 8.64 ms
            allow(day / MS + 9, 1, 0)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new SlidingWindow(LimitSpec.of(1L << 40, TimeUnit.DAYS.toNanos(365))));
  }

  @Test
  void idleTimesAndPolicies() {
    FixedWindow fixed = new FixedWindow(LimitSpec.of(100, 60 * S));
    SlidingWindow sliding = new SlidingWindow(LimitSpec.of(100, 60 * S));
    assertEquals(60 * S, fixed.idleNanosUntilFresh());
    assertEquals(120 * S, sliding.idleNanosUntilFresh());
    assertEquals(100, fixed.policy().quota());
    assertEquals(60, fixed.policy().windowSeconds());
    assertEquals(100, sliding.policy().quota());
    assertEquals(60, sliding.policy().windowSeconds());
  }

  @Test
  void resetIsWhenTheQuotaIsWholeAgain() {
    Verdict verdict = new Verdict();
    FixedWindow fixed = new FixedWindow(LimitSpec.of(10, S));
    fixed.decide(fixed.newState(), T0 + 300 * MS, 1, verdict);
    assertEquals(700 * MS, verdict.resetNanos);
    SlidingWindow sliding = new SlidingWindow(LimitSpec.of(10, S));
    SlidingWindow.State state = sliding.newState();
    sliding.decide(state, T0 + 300 * MS, 1, verdict);
    // this window's count weighs until the end of the next one
    assertEquals(1700 * MS, verdict.resetNanos);
    sliding.decide(state, T0 + 1200 * MS, 0, verdict);
    assertEquals(800 * MS, verdict.resetNanos);
  }
}
