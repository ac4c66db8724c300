package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A reload that changes a rule's limit, period or burst keeps what each key had used, counted
 * against the new parameters: locally (a new store takes over the old one's keys) and on Redis (the
 * same key, whose script converts the state written under the old parameters), with the same
 * decisions on both, request by request.
 */
@ExtendWith(RedisServerExtension.class)
class ReloadCarryOverTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long MIN = TimeUnit.MINUTES.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  /** A whole hour since the epoch, plus a little: inside a window of every period used here. */
  private static final long T0 = 1_764_028_800L * S + 7 * S;

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  /** One rule before and after a reload, on both stores, on one manual clock. */
  private static final class Reloaded {
    final ManualClock clock = new ManualClock(T0);
    final String rule = RedisTestSupport.uniqueRule("reload");
    LocalLimiterStore<?> local;
    RedisAlgorithmStore redis;

    Reloaded(RateLimitAlgorithm<?> before) {
      local = new LocalLimiterStore<>(before, clock, 10_000);
      redis = RedisAlgorithmStore.of(backend, rule, before, clock);
    }

    /** The reload: a new local store taking the old one's keys over; the same Redis keys. */
    void reload(RateLimitAlgorithm<?> after) {
      LocalLimiterStore<?> next = new LocalLimiterStore<>(after, clock, 10_000);
      next.inheritFrom(local);
      local = next;
      redis = RedisAlgorithmStore.of(backend, rule, after, clock);
    }

    Verdict decide(String key, long cost, String where) {
      Verdict expected = new Verdict();
      Verdict actual = new Verdict();
      local.decide(key, cost, expected);
      redis.decide(key, cost, actual);
      String context = where + ", key " + key + ", cost " + cost + " at +" + (clock.nowNanos() - T0)
          + "ns: local " + expected + ", redis " + actual;
      assertEquals(expected.allowed, actual.allowed, context);
      assertEquals(expected.remaining, actual.remaining, context);
      assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, context);
      assertEquals(expected.resetNanos, actual.resetNanos, context);
      assertEquals(expected.delayNanos, actual.delayNanos, context);
      return expected;
    }

    int passing(String key, int tries, String where) {
      int passed = 0;
      for (int i = 0; i < tries; i++) {
        passed += decide(key, 1, where + " " + i).allowed ? 1 : 0;
      }
      return passed;
    }
  }

  private static RateLimitAlgorithm<?> algorithm(AlgorithmKind kind, long limit, long period) {
    return Algorithms.create(kind, LimitSpec.of(limit, period));
  }

  private static long period(String p) {
    return p.equals("1m") ? MIN : p.equals("1h") ? HOUR : S;
  }

  /**
   * {@code used} of {@code limit} per {@code period} taken, then the rule changed: how many pass at
   * once afterwards. Without the carry-over, every row would pass the whole new limit.
   */
  @ParameterizedTest(name = "{0}: {2} of {1}/{3} used, then {4}/{5}: {6} pass")
  @CsvSource({
    // kind          limit used period  limit' period' pass   what
    "TOKEN_BUCKET,   10,   10,  1m,     10,    1h,     0", // a longer period: still all used
    "TOKEN_BUCKET,   10,   4,   1m,     5,     1m,     1", // tightened: 4 of 5 used
    "TOKEN_BUCKET,   4,    4,   1m,     8,     1m,     4", // loosened: the difference only
    "TOKEN_BUCKET,   10,   10,  1h,     10,    1m,     0", // a shorter period: all used, for now
    "GCRA,           10,   10,  1m,     10,    1h,     0",
    "GCRA,           10,   4,   1m,     5,     1m,     1",
    "GCRA,           4,    4,   1m,     8,     1m,     4",
    "FIXED_WINDOW,   10,   10,  1m,     10,    1h,     0",
    "FIXED_WINDOW,   10,   4,   1m,     5,     1m,     1",
    "FIXED_WINDOW,   4,    4,   1m,     8,     1m,     4",
    "SLIDING_WINDOW, 10,   10,  1m,     10,    1h,     0",
    "SLIDING_WINDOW, 10,   4,   1m,     5,     1m,     1",
    "SLIDING_WINDOW, 4,    4,   1m,     8,     1m,     4",
    "SLIDING_LOG,    10,   10,  1m,     10,    1h,     0",
    "SLIDING_LOG,    10,   4,   1m,     5,     1m,     1",
    "SLIDING_LOG,    4,    4,   1m,     8,     1m,     4",
  })
  void whatWasUsedStaysUsed(
      AlgorithmKind kind, long limit, int used, String per, long newLimit, String newPer,
      int passing) {
    Reloaded rule = new Reloaded(algorithm(kind, limit, period(per)));
    assertEquals(used, rule.passing("k", used, "before"));
    rule.clock.advanceNanos(1_000_000L);
    rule.reload(algorithm(kind, newLimit, period(newPer)));
    assertEquals(passing, rule.passing("k", (int) newLimit + 2, "after the reload"));
    assertEquals(newLimit, rule.passing("other", (int) newLimit, "a key unused before"),
        "a key that had used nothing has the whole new limit");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"TOKEN_BUCKET", "GCRA", "FIXED_WINDOW", "SLIDING_WINDOW", "SLIDING_LOG"})
  void aKeyUsedBeforeTheReloadButNotSinceIsCarriedOverAtItsNextRequest(AlgorithmKind kind) {
    Reloaded rule = new Reloaded(algorithm(kind, 6, MIN));
    rule.passing("k", 6, "before");
    rule.reload(algorithm(kind, 3, HOUR));
    rule.clock.advanceNanos(20 * S);
    assertEquals(0, rule.passing("k", 2, "20 s after the reload"));
  }

  static Stream<Arguments> changes() {
    return Stream.of(
        Arguments.of(AlgorithmKind.TOKEN_BUCKET), Arguments.of(AlgorithmKind.GCRA),
        Arguments.of(AlgorithmKind.FIXED_WINDOW), Arguments.of(AlgorithmKind.SLIDING_WINDOW),
        Arguments.of(AlgorithmKind.SLIDING_LOG));
  }

  /** Random traffic over a chain of reloads: local and Redis agree throughout. */
  @ParameterizedTest
  @MethodSource("changes")
  void randomTrafficAcrossReloads(AlgorithmKind kind) {
    long[][] specs = {
      {7, MIN, 7}, {3, MIN, 3}, {20, HOUR, 10}, {5, S, 5}, {9, MIN, 2}, {50, HOUR, 50}
    };
    if (kind == AlgorithmKind.SLIDING_LOG) {
      // A log's key lives a period after its last write, in real time, which the manual clock does
      // not move (the store keeps it an hour): an idle key the local store has let go may still be
      // on Redis, where a longer period would count its stale entries again. In real time both are
      // gone a period after the key's last use; here the periods do not grow.
      specs = new long[][] {{7, MIN, 7}, {3, MIN, 3}, {20, MIN, 20}, {5, MIN, 5}, {9, MIN, 9}};
    }
    Random random = new Random(kind.ordinal() * 31L + 5);
    Reloaded rule = new Reloaded(Algorithms.create(kind, new LimitSpec(specs[0][0], specs[0][1], specs[0][2])));
    int allowed = 0;
    for (int step = 1; step < specs.length; step++) {
      for (int i = 0; i < 60; i++) {
        int pick = random.nextInt(10);
        rule.clock.advanceNanos(pick < 4 ? 0 : pick < 8 ? random.nextInt(2000) * 1_000_000L : random.nextInt(90) * S);
        String key = random.nextInt(3) == 0 ? "b" : "a";
        allowed += rule.decide(key, random.nextInt(6) == 0 ? 2 : 1, "step " + step + " request " + i).allowed ? 1 : 0;
      }
      long[] s = specs[step];
      rule.reload(Algorithms.create(kind, new LimitSpec(s[0], s[1], s[2])));
    }
    assertTrue(allowed > 0);
  }
}
