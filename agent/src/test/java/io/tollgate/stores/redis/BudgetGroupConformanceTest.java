package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitGroup;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.BudgetGroup;
import io.tollgate.stores.LocalBudgetGroup;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rule of several limits decides the same on {@link LocalBudgetGroup} and on {@link
 * RedisBudgetGroup}, budget by budget, request by request, in one step on each: all of its limits
 * charged, or none.
 */
@ExtendWith(RedisServerExtension.class)
class BudgetGroupConformanceTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long MIN = TimeUnit.MINUTES.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  /** A whole minute since the epoch. */
  private static final long T0 = 1_764_028_800L * S;

  /** The algorithms a rule may give several limits (not concurrency, not a calendar quota). */
  static final AlgorithmKind[] MULTI_LIMIT = {
    AlgorithmKind.TOKEN_BUCKET,
    AlgorithmKind.GCRA,
    AlgorithmKind.FIXED_WINDOW,
    AlgorithmKind.SLIDING_WINDOW,
    AlgorithmKind.SLIDING_LOG
  };

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  /** The local and the Redis group of one rule's limits, on one manual clock. */
  static final class Pair {
    final ManualClock clock;
    final LocalBudgetGroup local;
    final RedisBudgetGroup redis;
    final int size;

    Pair(RedisBackend on, AlgorithmKind kind, long startNanos, LimitSpec... specs) {
      this.clock = new ManualClock(startNanos);
      String rule = RedisTestSupport.uniqueRule("group");
      List<RateLimitAlgorithm<?>> algorithms = new ArrayList<>();
      List<RedisAlgorithmStore> shared = new ArrayList<>();
      for (LimitSpec spec : specs) {
        RateLimitAlgorithm<?> algorithm = Algorithms.create(kind, spec);
        algorithms.add(algorithm);
        String period = Long.toString(spec.periodNanos()) + "ns";
        shared.add(
            RedisAlgorithmStore.ofBudget(
                on, rule, rule + "/" + period, "", period, algorithm, clock));
      }
      this.local = new LocalBudgetGroup(new LimitGroup(algorithms), clock, 10_000);
      this.redis = new RedisBudgetGroup(shared, (budget, member) -> member);
      this.size = specs.length;
    }

    /** Decides on both; asserts the same verdicts; returns whether the request passed. */
    boolean decide(String key, long cost, String where) {
      Verdict[] expected = verdicts(size);
      Verdict[] actual = verdicts(size);
      local.decideAll(key, cost, expected);
      redis.decideAll(key, cost, actual);
      boolean allowed = true;
      for (int i = 0; i < size; i++) {
        String context =
            where + ": budget " + i + ", cost " + cost + " key " + key + " at +"
                + (clock.nowNanos() - T0) + "ns: local " + expected[i] + ", redis " + actual[i];
        assertEquals(expected[i].allowed, actual[i].allowed, context);
        assertEquals(expected[i].remaining, actual[i].remaining, context);
        assertEquals(expected[i].retryAfterNanos, actual[i].retryAfterNanos, context);
        assertEquals(expected[i].resetNanos, actual[i].resetNanos, context);
        assertEquals(expected[i].nextUnitNanos, actual[i].nextUnitNanos, context + ": next unit");
        assertEquals(expected[i].delayNanos, actual[i].delayNanos, context);
        allowed &= expected[i].allowed;
      }
      return allowed;
    }

    void adjust(int budget, String key, long delta) {
      local.budget(budget).adjust(key, delta);
      redis.budget(budget).adjust(key, delta);
    }
  }

  static Verdict[] verdicts(int n) {
    Verdict[] v = new Verdict[n];
    for (int i = 0; i < n; i++) {
      v[i] = new Verdict();
    }
    return v;
  }

  // ---------------------------------------------------------------- classic cases

  static Stream<Arguments> secondAndMinute() {
    // 3 a second and 5 a minute; 4 requests at once, then 4 more two seconds later (when the
    // second's limit has forgotten the first 4, even by the sliding window's estimate).
    return Stream.of(
        Arguments.of(AlgorithmKind.TOKEN_BUCKET, 3, 2),
        Arguments.of(AlgorithmKind.GCRA, 3, 2),
        Arguments.of(AlgorithmKind.FIXED_WINDOW, 3, 2),
        Arguments.of(AlgorithmKind.SLIDING_WINDOW, 3, 2),
        Arguments.of(AlgorithmKind.SLIDING_LOG, 3, 2));
  }

  @ParameterizedTest(name = "{0}: {1} pass at once, {2} two seconds later")
  @MethodSource("secondAndMinute")
  void aRefusalOnOneLimitChargesNoOther(AlgorithmKind kind, int first, int second) {
    Pair group = new Pair(backend, kind, T0, LimitSpec.of(3, S), LimitSpec.of(5, MIN));
    int passed = 0;
    for (int i = 0; i < 4; i++) {
      passed += group.decide("k", 1, "first second, request " + i) ? 1 : 0;
    }
    assertEquals(first, passed, "the second's limit refuses the 4th");
    group.clock.advanceNanos(2 * S);
    passed = 0;
    for (int i = 0; i < 4; i++) {
      passed += group.decide("k", 1, "two seconds later, request " + i) ? 1 : 0;
    }
    // The minute's limit took only the 3 that passed, not the refused 4th: 2 of 5 are left.
    assertEquals(second, passed, "the minute's limit has exactly what the passed requests left");
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void aCostAboveOneLimitIsRefusedEverywhere(AlgorithmKind kind) {
    Pair group =
        new Pair(backend, kind, T0, LimitSpec.of(2, S), LimitSpec.of(10, MIN), LimitSpec.of(100, HOUR));
    Verdict[] v = verdicts(3);
    group.local.decideAll("k", 3, v);
    assertEquals(false, v[0].allowed);
    assertTrue(v[1].allowed && v[2].allowed, "the others would allow it");
    assertTrue(group.decide("k", 2, "then 2"), "nothing was kept of the refused 3");
  }

  static Stream<AlgorithmKind> kinds() {
    return Stream.of(MULTI_LIMIT);
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void randomTrafficOnThreeLimits(AlgorithmKind kind) {
    runRandomTraffic(backend, kind, 400);
  }

  /** Random costs, times and corrections on a rule of 3 a second, 20 a minute and 100 an hour. */
  static void runRandomTraffic(RedisBackend on, AlgorithmKind kind, int requests) {
    Pair group =
        new Pair(on, kind, T0 + 7_777, LimitSpec.of(3, S), LimitSpec.of(20, MIN), LimitSpec.of(100, HOUR));
    long seed = kind.ordinal() * 7_919L + requests;
    Random random = new Random(seed);
    int allowed = 0;
    int refused = 0;
    for (int i = 0; i < requests; i++) {
      int pick = random.nextInt(10);
      group.clock.advanceNanos(
          pick < 4 ? 0 : pick < 8 ? random.nextInt(400) * 1_000_000L : random.nextInt(120) * S);
      String key = random.nextInt(4) == 0 ? "b" + random.nextInt(2) : "a";
      if (random.nextInt(12) == 0) {
        group.adjust(random.nextInt(3), key, random.nextInt(7) - 3);
        continue;
      }
      long cost = random.nextInt(8) == 0 ? random.nextInt(5) : 1;
      if (group.decide(key, cost, "request " + i + " (seed " + seed + ")")) {
        allowed++;
      } else {
        refused++;
      }
    }
    assertTrue(allowed > 0, "some allowed");
    assertTrue(refused > 0, "some refused");
  }

  /** One EVALSHA per decision of a rule of three limits (BENCHMARKS.md, item 4), allowed or not. */
  @Test
  void oneRoundTripPerDecisionOfThreeLimits(@PrivateRedis RedisServer server) {
    try (RedisBackend own = RedisTestSupport.connect(server)) {
      Pair group =
          new Pair(own, AlgorithmKind.TOKEN_BUCKET, T0, LimitSpec.of(3, S), LimitSpec.of(20, MIN),
              LimitSpec.of(100, HOUR));
      group.decide("warm", 1, "loads the script");
      server.call("CONFIG", "RESETSTAT");
      int refused = 0;
      for (int i = 0; i < 50; i++) {
        Verdict[] v = verdicts(3);
        group.redis.decideAll("k", 1, v);
        refused += v[0].allowed ? 0 : 1;
      }
      assertEquals(47, refused, "3 of 50 pass the second's limit");
      String stats = String.valueOf(server.call("INFO", "commandstats"));
      assertEquals(50, calls(stats, "evalsha"), stats);
      assertEquals(0, calls(stats, "eval"), stats);
    }
  }

  private static long calls(String commandstats, String command) {
    for (String line : commandstats.split("\r?\n")) {
      if (line.startsWith("cmdstat_" + command + ":")) {
        String calls = line.substring(line.indexOf("calls=") + 6);
        return Long.parseLong(calls.substring(0, calls.indexOf(',')));
      }
    }
    return 0;
  }
}
