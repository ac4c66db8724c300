package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.allow;
import static io.tollgate.limiters.Step.refuse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PenaltyBoxTest {

  /** 1 per second behind a box: 3 refusals within 10 s -> refused for 60 s. */
  private static RateLimitAlgorithm<?> guarded() {
    return guarded(LimitSpec.of(1, S));
  }

  /** The same box in front of a fixed window of {@code limit}. */
  private static RateLimitAlgorithm<?> guarded(LimitSpec limit) {
    return new PenaltyBox(3, 10 * S, 60 * S).guard(new FixedWindow(limit));
  }

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(
            "three refusals within 10 s box the key for 60 s from the third",
            guarded(),
            Arrays.asList(
                allow(0, 1, 0), refuse(100, 1, 0, 900 * MS), refuse(200, 1, 0, 800 * MS),
                // the third refusal fills the box: its retry-after is the penalty
                refuse(300, 1, 0, 60 * S),
                // the limiter would allow this one; the box refuses it, and does not count it
                refuse(5000, 1, 0, 55_300 * MS),
                refuse(60_299, 1, 0, MS),
                allow(60_300, 1, 0))),
        Arguments.of(
            "a boxed key retries when its limiter allows again, if that is after the box",
            guarded(LimitSpec.of(1, 120 * S)),
            Arrays.asList(
                allow(0, 1, 0), refuse(100, 1, 0, 119_900 * MS), refuse(200, 1, 0, 119_800 * MS),
                // the third fills the 60 s box, but the window opens again only at 120 s
                refuse(300, 1, 0, 119_700 * MS),
                refuse(5000, 1, 0, 115 * S),
                refuse(60_299, 1, 0, 59_701 * MS),
                // the box is over; the limiter refuses with the same wait
                refuse(60_300, 1, 0, 59_700 * MS),
                allow(120_000, 1, 0))),
        Arguments.of(
            "refusals further apart than the period never fill the box",
            guarded(),
            Arrays.asList(
                allow(0, 1, 0), refuse(500, 1, 0, 500 * MS),
                allow(6000, 1, 0), refuse(6500, 1, 0, 500 * MS),
                // the refusal at 0.5 s is 10 s old at 10.5 s: only two in the last 10 s
                allow(12_000, 1, 0), refuse(12_500, 1, 0, 500 * MS),
                allow(13_000, 1, 0))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  @SuppressWarnings({"unchecked", "rawtypes"})
  void spec(String name, RateLimitAlgorithm algorithm, List<Step> steps) {
    Step.play(algorithm, steps);
  }

  @Test
  void checkAndRecordByHand() {
    PenaltyBox box = new PenaltyBox(2, S, 5 * S);
    PenaltyBox.State state = box.newState();
    Verdict verdict = new Verdict();
    assertFalse(box.check(state, 0, verdict));
    box.record(state, 0, verdict.allow(3, 0));
    assertEquals(0, state.refusals());
    box.record(state, 0, verdict.refuse(0, 100, 100));
    assertEquals(100, verdict.retryAfterNanos);
    box.record(state, 10, verdict.refuse(0, 100, 100));
    assertEquals(5 * S, verdict.retryAfterNanos);
    assertEquals(5 * S, verdict.resetNanos);
    assertTrue(box.check(state, 10 + 5 * S - 1, verdict));
    assertEquals(1, verdict.retryAfterNanos);
    assertFalse(box.check(state, 10 + 5 * S, verdict));
    assertEquals(5 * S, box.idleNanosUntilFresh());
    assertThrows(IllegalArgumentException.class, () -> new PenaltyBox(0, S, S));
    assertThrows(IllegalArgumentException.class, () -> new PenaltyBox(1001, S, S));
  }

  @Test
  void guardedKeepsTheLimitersPolicyReleaseAndIdleTime() {
    RateLimitAlgorithm<PenaltyBox.Guarded.State<Concurrency.State>> guarded =
        new PenaltyBox(3, 10 * S, 60 * S).guard(new Concurrency(LimitSpec.of(2, S)));
    PenaltyBox.Guarded.State<Concurrency.State> state = guarded.newState();
    Verdict verdict = new Verdict();
    guarded.decide(state, 0, 1, verdict);
    assertTrue(guarded.holdsResources(state));
    guarded.release(state, 0, 1);
    assertFalse(guarded.holdsResources(state));
    assertEquals(2, guarded.policy().quota());
    assertEquals(3_600 * S, guarded.idleNanosUntilFresh());
  }
}
