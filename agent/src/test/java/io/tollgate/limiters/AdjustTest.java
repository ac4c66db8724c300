package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link RateLimitAlgorithm#adjust} for every algorithm that counts units: a key with a limit of
 * 10 takes 6, then an adjustment; what is left after it is how many single units pass at once.
 * Refunds never make a key fuller than full, extra charges never take it below empty.
 */
class AdjustTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final LimitSpec TEN_AN_HOUR = LimitSpec.of(10, 3600 * S);

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> b = Stream.builder();
    Object[][] algorithms = {
      {"token-bucket", new TokenBucket(TEN_AN_HOUR)},
      {"gcra", new Gcra(TEN_AN_HOUR)},
      {"fixed-window", new FixedWindow(TEN_AN_HOUR)},
      {"sliding-window", new SlidingWindow(TEN_AN_HOUR)},
      {"sliding-log", new SlidingLog(TEN_AN_HOUR)},
      {"calendar day", new CalendarQuota(10, CalendarQuota.Unit.DAY, ZoneOffset.UTC)},
      {"penalty box around a token bucket", new PenaltyBox(3, S, S).guard(new TokenBucket(TEN_AN_HOUR))},
    };
    long[][] deltasAndLeft = {
      {0, 4}, // took 6 of 10
      {-2, 6}, // refund 2
      {-6, 10}, // refund all
      {-50, 10}, // never fuller than full
      {3, 1}, // charge 3 more
      {4, 0}, // charge exactly the rest
      {50, 0}, // never below empty
    };
    for (Object[] a : algorithms) {
      for (long[] d : deltasAndLeft) {
        b.add(Arguments.of(a[0], a[1], d[0], d[1]));
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0}: take 6 of 10, adjust by {2}: {3} left")
  @MethodSource("cases")
  <S> void anAdjustmentMovesTheBudgetWithinItsBounds(
      String name, RateLimitAlgorithm<S> algorithm, long delta, long left) {
    long now = 1_700_000_040L * S; // every decision at this one instant, inside one UTC day
    S state = algorithm.newState();
    Verdict verdict = new Verdict();
    algorithm.decide(state, now, 6, verdict);
    assertEquals(true, verdict.allowed);
    algorithm.adjust(state, now, delta);
    long passed = 0;
    for (int i = 0; i < 20; i++) {
      algorithm.decide(state, now, 1, verdict);
      if (verdict.allowed) {
        passed++;
      }
    }
    assertEquals(left, passed);
  }
}
