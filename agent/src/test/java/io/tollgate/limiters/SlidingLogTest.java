package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.T0;
import static io.tollgate.limiters.Step.allow;
import static io.tollgate.limiters.Step.refuse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SlidingLogTest {

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(
            "3 per second: each unit leaves exactly a period after it was allowed",
            Arrays.asList(
                allow(0, 1, 2), allow(200, 1, 1), allow(400, 1, 0),
                refuse(999, 1, 0, MS), allow(1000, 1, 0),
                // 2 units need the entries at 200 and 400 gone: at 1400
                refuse(1000, 2, 0, 400 * MS), refuse(1399, 2, 1, MS), allow(1400, 2, 0),
                refuse(1400, 4, 0, S),
                allow(5000, 3, 0))),
        Arguments.of(
            "the ring buffer wraps and grows without losing order",
            Arrays.asList(
                allow(0, 1, 2), allow(100, 1, 1), allow(1050, 1, 1), allow(1099, 1, 0),
                refuse(1099, 1, 0, MS), allow(2050, 2, 0), refuse(2098, 1, 0, MS),
                allow(3050, 1, 2), allow(3050, 1, 1))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void spec(String name, List<Step> steps) {
    Step.play(new SlidingLog(LimitSpec.of(3, S)), steps);
  }

  @Test
  void noBoundaryBurst() {
    SlidingLog log = new SlidingLog(LimitSpec.of(100, 60 * S));
    SlidingLog.State state = log.newState();
    Verdict verdict = new Verdict();
    int allowed = 0;
    for (int i = 0; i < 100; i++) {
      log.decide(state, T0 + 59_900 * MS, 1, verdict);
      allowed += verdict.allowed ? 1 : 0;
    }
    for (int i = 0; i < 100; i++) {
      log.decide(state, T0 + 60_100 * MS, 1, verdict);
      allowed += verdict.allowed ? 1 : 0;
    }
    assertEquals(100, allowed);
    // the first 100 leave at 119.9 s
    assertEquals(59_800 * MS, verdict.retryAfterNanos);
  }

  @Test
  void limitIsBoundedBecauseMemoryGrowsWithIt() {
    new SlidingLog(LimitSpec.of(SlidingLog.MAX_LIMIT, S));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new SlidingLog(LimitSpec.of(SlidingLog.MAX_LIMIT + 1, S)));
    assertTrue(e.getMessage().contains("at most 10000"), e.getMessage());
    assertTrue(e.getMessage().contains("sliding-window"), e.getMessage());
  }

  @Test
  void idleForAPeriodEmptiesTheLog() {
    SlidingLog log = new SlidingLog(LimitSpec.of(5, 10 * S));
    SlidingLog.State state = log.newState();
    Verdict verdict = new Verdict();
    log.decide(state, T0, 5, verdict);
    log.decide(state, T0 + log.idleNanosUntilFresh(), 5, verdict);
    assertTrue(verdict.allowed);
    assertEquals(10 * S, verdict.resetNanos);
    assertEquals(5, log.policy().quota());
    assertEquals(10, log.policy().windowSeconds());
  }
}
