package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code penalty-box.lua} is {@link PenaltyBox#check} and {@link PenaltyBox#record}: for random
 * refusals (clustered within the period, spread beyond it, at its exact boundaries), the script and
 * the in-process box answer alike, call by call. The script reads the test clock instead of TIME.
 */
@ExtendWith(RedisServerExtension.class)
class PenaltyBoxConformanceTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long T0 = 1_764_028_800L * S;

  @Test
  void randomRefusalsGiveTheSameAnswers(RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      for (long seed = 1; seed <= 6; seed++) {
        runRandomRefusals(backend, seed, 400);
      }
    }
  }

  @Test
  void periodsAndPenaltiesUpTo2Pow52NanosecondsAreExact(RedisServer server) {
    long max = 1L << 52;
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      ManualClock clock = new ManualClock(T0 + 123_456_789L);
      PenaltyBox box = new PenaltyBox(2, max, max);
      PenaltyBox.State state = box.newState();
      RedisPenaltyBox redis =
          new RedisPenaltyBox(backend, RedisTestSupport.uniqueRule("big"), 2, max, max, clock);
      for (long step : new long[] {0, max - 1, 1, max - 1, 1, 7}) {
        clock.advanceNanos(step);
        compare(box, state, redis, clock, S, "after +" + step);
      }
    }
  }

  /** Random traffic on one key of one random box; asserts every answer alike. */
  static void runRandomRefusals(RedisBackend backend, long seed, int steps) {
    Random random = new Random(seed);
    int after = 1 + random.nextInt(5);
    long period = (1 + random.nextInt(20)) * S + random.nextInt(1000);
    long penalty = (1 + random.nextInt(60)) * S + random.nextInt(1000);
    ManualClock clock = new ManualClock(T0);
    PenaltyBox box = new PenaltyBox(after, period, penalty);
    PenaltyBox.State state = box.newState();
    RedisPenaltyBox redis =
        new RedisPenaltyBox(
            backend, RedisTestSupport.uniqueRule("random"), after, period, penalty, clock);
    int boxes = 0;
    for (int i = 0; i < steps; i++) {
      long[] gaps = {0, 1, period / after, period - 1, period, period + 1, penalty, S / 10};
      clock.advanceNanos(gaps[random.nextInt(gaps.length)]);
      String context =
          "seed " + seed + " (after " + after + ", period " + period + ", penalty " + penalty
              + ") step " + i;
      // the limiter's wait: shorter or longer than the box (a longer one outlasts it)
      long[] waits = {S, penalty - 1, penalty, penalty + 1, 3 * penalty};
      if (compare(box, state, redis, clock, waits[random.nextInt(waits.length)], context)) {
        boxes++;
      }
    }
    assertTrue(boxes > 0, "seed " + seed + ": the traffic never filled the box");
  }

  /**
   * What the engine does, on both: check; unless boxed, record a refusal by a limiter that asks to
   * wait {@code limiterWait}. True when boxed.
   */
  private static boolean compare(
      PenaltyBox box,
      PenaltyBox.State state,
      RedisPenaltyBox redis,
      ManualClock clock,
      long limiterWait,
      String at) {
    Verdict expected = new Verdict();
    Verdict actual = new Verdict();
    boolean boxed = box.check(state, clock.nowNanos(), expected);
    assertEquals(boxed, redis.check("k", actual), at + ": check");
    if (!boxed) {
      expected.refuse(0, limiterWait, limiterWait);
      actual.refuse(0, limiterWait, limiterWait);
      box.record(state, clock.nowNanos(), expected);
      redis.record("k", actual);
    }
    String context = at + ": local " + expected + ", redis " + actual;
    assertEquals(expected.allowed, actual.allowed, context);
    assertEquals(expected.remaining, actual.remaining, context);
    assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, context);
    assertEquals(expected.resetNanos, actual.resetNanos, context);
    return boxed;
  }
}
