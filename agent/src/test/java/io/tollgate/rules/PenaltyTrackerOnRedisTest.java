package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisConnectionSettings;
import io.tollgate.stores.redis.RedisKeys;
import io.tollgate.stores.redis.RedisPenaltyBox;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rule's penalty on {@code backend: redis} counts and boxes exactly as on {@code backend: local},
 * once for all instances; and when Redis cannot answer, requests are still decided.
 *
 * <p>The conformance table drives a local tracker and a Redis tracker the way the engine does:
 * {@code check} before each decision, then the limiter's verdict (here given by the table) to
 * {@code record}. Both read one {@link ManualClock}: the local tracker as its clock, the script
 * through its test-only "now" argument instead of Redis {@code TIME}.
 */
@ExtendWith(RedisServerExtension.class)
class PenaltyTrackerOnRedisTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long T0 = 1_764_028_800L * S;
  private static final AtomicInteger RULES = new AtomicInteger();

  /** 3 refusals within 10 s box the key for 60 s (the README's shape, smaller numbers). */
  private static final int AFTER = 3;
  private static final long WITHIN = 10 * S;
  private static final long BOX_FOR = 60 * S;

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = connect(server, Duration.ofSeconds(5));
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  // ------------------------------------------------------------------ conformance table

  /** What happens to one request at {@code at} (nanoseconds after T0). */
  enum Outcome {
    /** The limiter allows it; nothing is counted. */
    ALLOWED,
    /** The limiter refuses it (retry-after 1 s); counted, the box not yet full. */
    COUNTED,
    /** The limiter refuses it and it fills the box: its retry-after and reset are the penalty. */
    FILLS,
    /** The key is in the box: refused before the limiter, not counted. */
    BOXED
  }

  static final class Step {
    final long at;
    final boolean limiterRefuses;
    final Outcome expected;
    final long expectedRetry;

    Step(long at, boolean limiterRefuses, Outcome expected, long expectedRetry) {
      this.at = at;
      this.limiterRefuses = limiterRefuses;
      this.expected = expected;
      this.expectedRetry = expectedRetry;
    }

    @Override
    public String toString() {
      return expected + " at +" + at + "ns";
    }
  }

  static Step allowed(long at) {
    return new Step(at, false, Outcome.ALLOWED, 0);
  }

  static Step counted(long at) {
    return new Step(at, true, Outcome.COUNTED, S);
  }

  static Step fills(long at) {
    return new Step(at, true, Outcome.FILLS, BOX_FOR);
  }

  /** Boxed, with {@code left} the retry-after (the time left in the box). */
  static Step boxed(long at, long left) {
    return new Step(at, true, Outcome.BOXED, left);
  }

  static Stream<Arguments> table() {
    return Stream.of(
        Arguments.of(
            "boxed at exactly the third refusal within the period",
            Arrays.asList(
                allowed(0), counted(1 * S), allowed(2 * S), counted(3 * S),
                fills(4 * S),
                boxed(5 * S, 59 * S))),
        Arguments.of(
            "refusals spread beyond the period never fill the box",
            Arrays.asList(
                counted(0), counted(6 * S), counted(12 * S), counted(18 * S), counted(24 * S))),
        Arguments.of(
            "a refusal exactly one period old is no longer counted; one nanosecond younger is",
            Arrays.asList(
                counted(0), counted(5 * S),
                counted(10 * S), // the one at 0 is exactly 10 s old: forgotten
                fills(10 * S + 1))), // 5 s, 10 s and this one: three within 10 s
        Arguments.of(
            "the box ends exactly box-for after the refusal that filled it",
            Arrays.asList(
                counted(0), counted(1), fills(2),
                boxed(2 + 1, BOX_FOR - 1),
                boxed(2 + BOX_FOR - 1, 1),
                allowed(2 + BOX_FOR))),
        Arguments.of(
            "after the box the count starts again from zero; refusals while boxed were not counted",
            Arrays.asList(
                counted(0), counted(S), fills(2 * S),
                boxed(3 * S, 59 * S), boxed(4 * S, 58 * S), boxed(61 * S, S),
                counted(62 * S), counted(63 * S), fills(64 * S),
                boxed(64 * S + MS, BOX_FOR - MS))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void localAndRedisDecideAlike(String name, List<Step> steps) {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("conf");
    PenaltyTracker local = localTracker(clock);
    PenaltyTracker redis = redisTracker(backend, rule, clock, false);
    // The script itself, as another instance that has not seen the key boxed would ask it.
    RedisPenaltyBox script = new RedisPenaltyBox(backend, rule, AFTER, WITHIN, BOX_FOR, clock);
    for (Step step : steps) {
      clock.setNanos(T0 + step.at);
      Verdict localCheck = new Verdict();
      Verdict scriptCheck = new Verdict();
      assertEquals(
          local.check("k", localCheck), script.check("k", scriptCheck), name + ", check, " + step);
      assertSame(localCheck, scriptCheck, name + ", check, " + step);
      Verdict expected = decide(local, "k", step);
      Verdict actual = decide(redis, "k", step);
      String context = name + ", " + step + ": local " + expected + ", redis " + actual;
      assertSame(expected, actual, context);
      assertEquals(step.expected != Outcome.ALLOWED, !expected.allowed, context);
      assertEquals(step.expectedRetry, expected.retryAfterNanos, context);
      if (step.expected == Outcome.FILLS || step.expected == Outcome.BOXED) {
        assertEquals(step.expectedRetry, expected.resetNanos, context);
      }
    }
  }

  @Test
  void aLimiterRetryLongerThanThePenaltyIsKept() {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("longer");
    PenaltyTracker local = localTracker(clock);
    PenaltyTracker redis = redisTracker(backend, rule, clock, false);
    for (int i = 0; i < AFTER; i++) {
      Verdict expected = refusal(2 * BOX_FOR);
      Verdict actual = refusal(2 * BOX_FOR);
      local.record("k", expected);
      redis.record("k", actual);
      assertSame(expected, actual, "refusal " + (i + 1));
      assertEquals(2 * BOX_FOR, actual.retryAfterNanos);
    }
    // While boxed, the wait told is the limiter's (120 s from the box's start), not the box's 60 s:
    // a client that waits as told is not refused by the limiter as soon as the box ends.
    clock.advanceNanos(10 * S);
    PenaltyTracker anotherInstance = redisTracker(backend, rule, clock, false);
    for (PenaltyTracker tracker : Arrays.asList(local, redis, anotherInstance)) {
      Verdict boxed = new Verdict();
      assertTrue(tracker.check("k", boxed), "boxed");
      assertEquals(2 * BOX_FOR - 10 * S, boxed.retryAfterNanos, boxed.toString());
      assertEquals(2 * BOX_FOR - 10 * S, boxed.resetNanos, boxed.toString());
    }
    clock.advanceNanos(BOX_FOR - 10 * S);
    assertFalse(local.check("k", new Verdict()), "the box is over: the limiter decides again");
    RedisPenaltyBox script = new RedisPenaltyBox(backend, rule, AFTER, WITHIN, BOX_FOR, clock);
    assertFalse(script.check("k", new Verdict()), "over on Redis too");
    // An instance that saw the key boxed still answers for it until the retry time, with the wait
    // the limiter would give itself, and without asking Redis.
    Verdict remembered = new Verdict();
    assertTrue(anotherInstance.check("k", remembered));
    assertEquals(BOX_FOR, remembered.retryAfterNanos, remembered.toString());
  }

  @Test
  void keysAndRulesAreCountedApart() {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("apart");
    PenaltyTracker redis = redisTracker(backend, rule, clock, false);
    PenaltyTracker otherRule = redisTracker(backend, uniqueRule("apart"), clock, false);
    for (int i = 0; i < AFTER; i++) {
      redis.record("a", refusal(S));
    }
    assertTrue(redis.check("a", new Verdict()));
    assertFalse(redis.check("b", new Verdict()), "another key");
    assertFalse(otherRule.check("a", new Verdict()), "the same key of another rule");
  }

  // ------------------------------------------------------------------ two instances

  @Test
  void twoInstancesShareTheCountAndTheBoxOnRedisTime(RedisServer server) {
    String rule = uniqueRule("shared");
    long hour = TimeUnit.HOURS.toNanos(1);
    try (RedisBackend other = connect(server, Duration.ofSeconds(5))) {
      // Two instances: each its own connection and tracker; Redis TIME is the clock.
      PenaltyTracker a = redisTracker(backend, rule, Clock.system(), false, 3, hour, hour);
      PenaltyTracker b = redisTracker(other, rule, Clock.system(), false, 3, hour, hour);

      Verdict first = refusal(S);
      a.record("k", first);
      Verdict second = refusal(S);
      b.record("k", second);
      assertEquals(S, second.retryAfterNanos, "two refusals in all: not boxed yet");
      assertFalse(a.check("k", new Verdict()));
      assertFalse(b.check("k", new Verdict()));

      Verdict third = refusal(S);
      a.record("k", third);
      assertEquals(hour, third.retryAfterNanos, "the third refusal in all fills the box");

      Verdict onB = new Verdict();
      assertTrue(b.check("k", onB), "the other instance refuses the boxed key too");
      assertFalse(onB.allowed);
      assertTrue(onB.retryAfterNanos > 0 && onB.retryAfterNanos <= hour, onB.toString());
      assertEquals(onB.retryAfterNanos, onB.resetNanos);

      Object ttl = server.call("PTTL", RedisKeys.penaltyKey(rule, "k"));
      assertTrue(
          ttl instanceof Long && (Long) ttl > 0 && (Long) ttl <= 3_600_000L,
          "expires after idleNanosUntilFresh (1 h): " + ttl);
    }
  }

  @Test
  void twoInstancesAlternatingAreBoxedAtTheSameCountAsOne() {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("alternate");
    PenaltyTracker one = localTracker(clock);
    PenaltyTracker a = redisTracker(backend, rule, clock, false);
    PenaltyTracker b = redisTracker(backend, rule, clock, false);
    for (int i = 0; i < AFTER; i++) {
      clock.advanceNanos(S);
      Verdict expected = refusal(S);
      Verdict actual = refusal(S);
      one.record("k", expected);
      (i % 2 == 0 ? a : b).record("k", actual);
      assertSame(expected, actual, "refusal " + (i + 1) + " (on instance " + (i % 2 == 0 ? "a)" : "b)"));
    }
    clock.advanceNanos(S);
    Verdict onA = new Verdict();
    Verdict onB = new Verdict();
    Verdict alone = new Verdict();
    assertTrue(one.check("k", alone));
    assertTrue(a.check("k", onA));
    assertTrue(b.check("k", onB));
    assertSame(alone, onA, "instance a");
    assertSame(alone, onB, "instance b");
  }

  @Test
  void aKeySeenBoxedIsRefusedUntilTheBoxEndsWithoutAskingRedisAgain(RedisServer server) {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("known");
    PenaltyTracker a = redisTracker(backend, rule, clock, false);
    for (int i = 0; i < AFTER; i++) {
      a.record("k", refusal(S));
    }
    // Redis forgets the box (a flush): the instance that saw it still refuses until it ends...
    server.call("DEL", RedisKeys.penaltyKey(rule, "k"));
    clock.advanceNanos(BOX_FOR - 1);
    Verdict boxed = new Verdict();
    assertTrue(a.check("k", boxed), "known boxed here");
    assertEquals(1, boxed.retryAfterNanos);
    assertFalse(redisTracker(backend, rule, clock, false).check("k", new Verdict()), "on redis");
    // ...and not one nanosecond longer.
    clock.advanceNanos(1);
    assertFalse(a.check("k", new Verdict()));
  }

  // ------------------------------------------------------------------ Redis down

  @Test
  void redisDownRequestsAreStillDecided(@PrivateRedis RedisServer server) {
    ManualClock clock = new ManualClock(T0);
    String rule = uniqueRule("down");
    try (RedisBackend down = connect(server, Duration.ofMillis(500))) {
      PenaltyTracker skips = redisTracker(down, rule, clock, false);
      PenaltyTracker countsLocally = redisTracker(down, rule, clock, true);
      skips.record("k", refusal(S));
      skips.record("k", refusal(S));
      assertFalse(skips.check("k", new Verdict()), "two refusals on redis");

      server.kill();

      // on-failure allow / deny: the penalty is skipped, never an error, never a refusal.
      for (int i = 0; i < 10; i++) {
        Verdict verdict = new Verdict();
        verdict.allow(4, S);
        assertFalse(skips.check("k", verdict), "not boxed while redis is down");
        assertTrue(verdict.allowed && verdict.remaining == 4, "the verdict is left to the limiter");
        Verdict refused = refusal(S);
        skips.record("k", refused);
        assertEquals(S, refused.retryAfterNanos, "not stretched: nothing was counted");
      }

      // on-failure local: this instance counts and boxes on its own meanwhile.
      Verdict first = refusal(S);
      countsLocally.record("k", first);
      countsLocally.record("k", refusal(S));
      assertFalse(countsLocally.check("k", new Verdict()));
      Verdict third = refusal(S);
      countsLocally.record("k", third);
      assertEquals(BOX_FOR, third.retryAfterNanos, "boxed by this instance's own count");
      Verdict boxed = new Verdict();
      assertTrue(countsLocally.check("k", boxed));
      assertEquals(BOX_FOR, boxed.retryAfterNanos);
    }
  }

  @Test
  void aFailClosedRefusalIsNotTheClientsAndIsNotCounted() {
    ManualClock clock = new ManualClock(T0);
    PenaltyTracker redis = redisTracker(backend, uniqueRule("closed"), clock, false);
    PenaltyTracker local = localTracker(clock);
    for (int i = 0; i < AFTER; i++) {
      Verdict unavailable = refusal(S);
      unavailable.backendUnavailable = true;
      redis.record("k", unavailable);
      local.record("k", unavailable);
    }
    assertFalse(redis.check("k", new Verdict()));
    assertFalse(local.check("k", new Verdict()));
  }

  // ------------------------------------------------------------------ helpers

  /** What the engine does: check; unless boxed, the limiter's verdict, then record. */
  private static Verdict decide(PenaltyTracker tracker, String key, Step step) {
    Verdict verdict = new Verdict();
    if (tracker.check(key, verdict)) {
      return verdict;
    }
    if (step.limiterRefuses) {
      verdict.refuse(0, S, S);
    } else {
      verdict.allow(4, S);
    }
    tracker.record(key, verdict);
    return verdict;
  }

  private static Verdict refusal(long retry) {
    Verdict verdict = new Verdict();
    verdict.refuse(0, retry, retry);
    return verdict;
  }

  private static void assertSame(Verdict expected, Verdict actual, String context) {
    assertEquals(expected.allowed, actual.allowed, context);
    assertEquals(expected.remaining, actual.remaining, context);
    assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, context);
    assertEquals(expected.resetNanos, actual.resetNanos, context);
  }

  private static PenaltyTracker localTracker(Clock clock) {
    return new PenaltyTracker(
        new PenaltyBox(AFTER, WITHIN, BOX_FOR), clock, 1_000, PenaltyFingerprint.of("local"));
  }

  private static PenaltyTracker redisTracker(
      RedisBackend on, String rule, ManualClock clock, boolean localWhenUnavailable) {
    return new PenaltyTracker(
        new PenaltyBox(AFTER, WITHIN, BOX_FOR),
        clock,
        1_000,
        PenaltyFingerprint.of("redis"),
        new RedisPenaltyBox(on, rule, AFTER, WITHIN, BOX_FOR, clock),
        localWhenUnavailable);
  }

  /** On Redis TIME (no test clock). */
  private static PenaltyTracker redisTracker(
      RedisBackend on,
      String rule,
      Clock clock,
      boolean localWhenUnavailable,
      int after,
      long within,
      long boxFor) {
    return new PenaltyTracker(
        new PenaltyBox(after, within, boxFor),
        clock,
        1_000,
        PenaltyFingerprint.of("redis"),
        new RedisPenaltyBox(on, rule, after, within, boxFor),
        localWhenUnavailable);
  }

  private static RedisBackend connect(RedisServer server, Duration timeout) {
    RedisBackend connected =
        RedisBackend.connect(RedisConnectionSettings.uri(server.uri()).withTimeout(timeout));
    assertTrue(connected.awaitConnected(Duration.ofSeconds(20)), "no connection to " + server);
    return connected;
  }

  private static String uniqueRule(String base) {
    return "penalty-" + base + "-" + Long.toString(System.nanoTime(), 36) + "-"
        + RULES.incrementAndGet();
  }
}
