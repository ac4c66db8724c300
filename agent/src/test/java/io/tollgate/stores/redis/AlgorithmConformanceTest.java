package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.ArrayDeque;
import java.time.ZoneId;
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
 * Every algorithm gives the same decisions on {@link LocalLimiterStore} and on its Redis store for
 * the same traffic: allowed, remaining, retry-after, reset and delay, request by request, including
 * cost corrections ({@code adjust}) and, for {@code concurrency}, releases.
 *
 * <p>Both stores read one {@link ManualClock}: the local store as its clock (and as the ticker of
 * its key expiry, so that keys are forgotten in test time), the Redis scripts through their
 * test-only "now" argument instead of Redis {@code TIME}.
 */
@ExtendWith(RedisServerExtension.class)
class AlgorithmConformanceTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long MIN = TimeUnit.MINUTES.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final long DAY = TimeUnit.DAYS.toNanos(1);
  /** A whole minute (and day) since the epoch: window-aligned traffic starts here. */
  private static final long T0 = 1_764_028_800L * S;

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  /** The local and the Redis store of one algorithm, on one manual clock. */
  private static final class Pair {
    final RateLimitAlgorithm<?> algorithm;
    final ManualClock clock;
    final LimiterStore local;
    final RedisAlgorithmStore redis;

    Pair(RateLimitAlgorithm<?> algorithm, long startNanos) {
      this(backend, algorithm, startNanos);
    }

    Pair(RedisBackend on, RateLimitAlgorithm<?> algorithm, long startNanos) {
      this.algorithm = algorithm;
      this.clock = new ManualClock(startNanos);
      this.local = localStore(algorithm, clock);
      this.redis =
          RedisAlgorithmStore.of(on, RedisTestSupport.uniqueRule("conf"), algorithm, clock);
    }

    private static <S> LimiterStore localStore(RateLimitAlgorithm<S> algorithm, ManualClock clock) {
      return new LocalLimiterStore<>(algorithm, clock, 10_000);
    }

    /** Decides on both; asserts the same verdict; returns it. */
    Verdict decide(String key, long cost, String where) {
      Verdict expected = new Verdict();
      Verdict actual = new Verdict();
      local.decide(key, cost, expected);
      redis.decide(key, cost, actual);
      String context =
          where + ": cost " + cost + " key " + key + " at +" + (clock.nowNanos() - T0) + "ns: local "
              + expected + ", redis " + actual;
      assertEquals(expected.allowed, actual.allowed, context);
      assertEquals(expected.remaining, actual.remaining, context);
      assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, context);
      assertEquals(expected.resetNanos, actual.resetNanos, context);
      assertEquals(expected.nextUnitNanos, actual.nextUnitNanos, context + ": next unit");
      assertEquals(expected.delayNanos, actual.delayNanos, context);
      return expected;
    }

    void adjust(String key, long delta) {
      local.adjust(key, delta);
      redis.adjust(key, delta);
    }

    void release(String key, long cost) {
      local.release(key, cost);
      redis.release(key, cost);
    }
  }

  private static RateLimitAlgorithm<?> algorithm(
      AlgorithmKind kind, long limit, long period, long burst, long maxDelay) {
    return Algorithms.create(
        kind,
        new LimitSpec(limit, period, burst),
        Algorithms.Options.DEFAULTS.withMaxDelayNanos(maxDelay));
  }

  // ---------------------------------------------------------------- classic cases

  static Stream<Arguments> boundaryBurst() {
    // 100 a minute; 100 requests at 59.9 s, then 100 at 60.1 s (the next fixed window).
    return Stream.of(
        Arguments.of(AlgorithmKind.TOKEN_BUCKET, 0),
        Arguments.of(AlgorithmKind.GCRA, 0),
        Arguments.of(AlgorithmKind.FIXED_WINDOW, 100),
        Arguments.of(AlgorithmKind.SLIDING_WINDOW, 0),
        Arguments.of(AlgorithmKind.SLIDING_LOG, 0),
        Arguments.of(AlgorithmKind.CONCURRENCY, 0));
  }

  @ParameterizedTest(name = "{0}: {1} of the second 100 pass")
  @MethodSource("boundaryBurst")
  void burstAcrossAWindowBoundary(AlgorithmKind kind, int secondBatchAllowed) {
    Pair stores = new Pair(algorithm(kind, 100, MIN, 100, 0), T0 + 59_900 * 1_000_000L);
    for (int i = 0; i < 100; i++) {
      assertTrue(stores.decide("k", 1, "first batch " + i).allowed, "first batch " + i);
    }
    stores.clock.advanceNanos(200_000_000L);
    int allowed = 0;
    for (int i = 0; i < 100; i++) {
      if (stores.decide("k", 1, "second batch " + i).allowed) {
        allowed++;
      }
    }
    assertEquals(secondBatchAllowed, allowed);
  }

  static Stream<Arguments> refillTiming() {
    // 5 a minute, 5 taken at the start of a minute: when may the 6th come?
    return Stream.of(
        Arguments.of(AlgorithmKind.TOKEN_BUCKET, 12 * S, "one token back after T = 12 s"),
        Arguments.of(AlgorithmKind.GCRA, 12 * S, "one emission interval"),
        Arguments.of(AlgorithmKind.FIXED_WINDOW, MIN, "the next window"),
        Arguments.of(AlgorithmKind.SLIDING_WINDOW, 72 * S, "next window, once 4 of the 5 weigh"),
        Arguments.of(AlgorithmKind.SLIDING_LOG, MIN, "the oldest entry a minute old"),
        Arguments.of(AlgorithmKind.CONCURRENCY, S, "fixed: nothing says when a permit returns"));
  }

  @ParameterizedTest(name = "{0}: retry after {1} ns ({2})")
  @MethodSource("refillTiming")
  void retryAfterIsWhenTheSameRequestPasses(AlgorithmKind kind, long retryAfter, String why) {
    Pair stores = new Pair(algorithm(kind, 5, MIN, 5, 0), T0);
    for (int i = 0; i < 5; i++) {
      assertTrue(stores.decide("k", 1, "request " + i).allowed);
    }
    Verdict refused = stores.decide("k", 1, "sixth");
    assertEquals(false, refused.allowed);
    assertEquals(retryAfter, refused.retryAfterNanos, why);
    if (kind != AlgorithmKind.CONCURRENCY) {
      stores.clock.advanceNanos(retryAfter - 1);
      assertEquals(false, stores.decide("k", 1, "just before").allowed, "1 ns before");
      stores.clock.advanceNanos(1);
      assertTrue(stores.decide("k", 1, "at retry-after").allowed, "at retry-after");
    } else {
      stores.release("k", 1);
      assertTrue(stores.decide("k", 1, "after a release").allowed, "after a release");
    }
  }

  /** Every algorithm that runs on Redis: all but adaptive-concurrency, local by nature. */
  static Stream<AlgorithmKind> kinds() {
    return Stream.of(AlgorithmKind.values()).filter(k -> k != AlgorithmKind.ADAPTIVE_CONCURRENCY);
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void aCostAboveTheLimitIsRefusedAndCountsNothing(AlgorithmKind kind) {
    Pair stores = new Pair(algorithm(kind, 5, MIN, 5, 0), T0 + 7 * S);
    Verdict refused = stores.decide("k", 6, "cost 6 of 5");
    assertEquals(false, refused.allowed);
    assertEquals(5, refused.remaining);
    assertEquals(kind == AlgorithmKind.CONCURRENCY ? S : MIN, refused.retryAfterNanos);
    assertTrue(stores.decide("k", 5, "then cost 5").allowed);
  }

  @Test
  void gcraDelaysWithinMaxDelayAndRefusesBeyond() {
    // 1 a second, burst 1, held up to 2.5 s: the 2nd and 3rd wait 1 s and 2 s, the 4th is refused.
    Pair stores = new Pair(algorithm(AlgorithmKind.GCRA, 1, S, 1, 2_500_000_000L), T0);
    assertEquals(0, stores.decide("k", 1, "first").delayNanos);
    assertEquals(S, stores.decide("k", 1, "second").delayNanos);
    assertEquals(2 * S, stores.decide("k", 1, "third").delayNanos);
    Verdict fourth = stores.decide("k", 1, "fourth");
    assertEquals(false, fourth.allowed);
    assertEquals(S / 2, fourth.retryAfterNanos);
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void refundsAndCorrectionsCountOnRedisAsLocally(AlgorithmKind kind) {
    Pair stores = new Pair(algorithm(kind, 10, MIN, 10, 0), T0 + S);
    stores.decide("k", 4, "take 4");
    stores.adjust("k", -3); // another limit of the rule refused: take back 3
    stores.adjust("k", 5); // the cost header says 5 more
    stores.decide("k", 1, "one more");
    stores.adjust("k", 100); // far more than is left
    stores.decide("k", 1, "empty?");
    stores.adjust("k", -100); // far more than was taken
    stores.decide("k", 10, "whole again?");
  }

  // ---------------------------------------------------------------- random traffic

  static Stream<Arguments> specs() {
    List<Arguments> all = new ArrayList<>();
    long[][] rates = {
      {5, MIN, 5}, {7, MIN, 3}, {3, 7 * S + 3, 10}, {1000, S, 50}, {1, HOUR, 1},
      {13, HOUR, 13}, {999_983, 10 * S + 7, 12_345}, {1000, DAY, 1000}
    };
    for (long[] r : rates) {
      all.add(Arguments.of(AlgorithmKind.TOKEN_BUCKET, r[0], r[1], r[2], 0L));
      all.add(Arguments.of(AlgorithmKind.GCRA, r[0], r[1], r[2], 0L));
      all.add(Arguments.of(AlgorithmKind.GCRA, r[0], r[1], r[2], r[1] / r[0] * 3 + 7));
    }
    all.add(Arguments.of(AlgorithmKind.GCRA, 1_000_000L, DAY, 1_000_000L, HOUR));
    long[][] windows = {
      {5, MIN}, {7, 7 * S + 3}, {1000, S}, {3, HOUR}, {100, DAY}, {13, 3}
    };
    for (long[] w : windows) {
      all.add(Arguments.of(AlgorithmKind.FIXED_WINDOW, w[0], w[1], w[0], 0L));
      all.add(Arguments.of(AlgorithmKind.SLIDING_WINDOW, w[0], w[1], w[0], 0L));
      all.add(Arguments.of(AlgorithmKind.SLIDING_LOG, w[0], w[1], w[0], 0L));
    }
    // Large numbers: the sliding window's unit coarsens to microseconds.
    all.add(Arguments.of(AlgorithmKind.SLIDING_WINDOW, 1_000_000_000L, 10 * DAY, 1_000_000_000L, 0L));
    all.add(Arguments.of(AlgorithmKind.FIXED_WINDOW, 1_000_000_000L, 10 * DAY, 1_000_000_000L, 0L));
    for (long limit : new long[] {1, 5, 100}) {
      all.add(Arguments.of(AlgorithmKind.CONCURRENCY, limit, MIN, limit, 0L));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1} per {2} ns, burst {3}, max-delay {4}")
  @MethodSource("specs")
  void sameDecisionsForRandomTraffic(
      AlgorithmKind kind, long limit, long period, long burst, long maxDelay) {
    int requests = kind == AlgorithmKind.SLIDING_LOG && limit >= 1000 ? 400 : 1000;
    runRandomTraffic(backend, kind, limit, period, burst, maxDelay, requests);
  }

  /** Replays seeded random traffic (decisions, corrections, releases) on both stores. */
  static void runRandomTraffic(
      RedisBackend on, AlgorithmKind kind, long limit, long period, long burst, long maxDelay,
      int requests) {
    Pair stores =
        new Pair(on, algorithm(kind, limit, period, burst, maxDelay), T0 + limit * 7 + period % 1_000_003);
    long seed = kind.ordinal() * 1_000_003L + limit * 31 + period + maxDelay;
    Random random = new Random(seed);
    boolean concurrency = kind == AlgorithmKind.CONCURRENCY;
    long interval = Math.max(1, period / limit);
    long size = concurrency ? limit : Math.max(limit, burst);
    ArrayDeque<Object[]> held = new ArrayDeque<>();
    int allowed = 0;
    int refused = 0;
    for (int i = 0; i < requests; i++) {
      // Concurrency leases end after an hour on Redis: its traffic stays well within one.
      stores.clock.advanceNanos(concurrency ? random.nextInt(1000) * 1_000_000L : advance(random, interval, size, period));
      String key = random.nextInt(4) == 0 ? "b" + random.nextInt(3) : "a";
      int op = random.nextInt(10);
      if (op == 0 && !concurrency) {
        stores.adjust(key, (long) ((random.nextDouble() * 2 - 1) * size) + (random.nextBoolean() ? 0 : 1));
        continue;
      }
      if (op <= 2 && concurrency && !held.isEmpty()) {
        Object[] h = random.nextBoolean() ? held.pollFirst() : held.pollLast();
        stores.release((String) h[0], (Long) h[1]);
        continue;
      }
      long cost = cost(random, size);
      Verdict v = stores.decide(key, cost, "request " + i + " (seed " + seed + ")");
      if (v.allowed) {
        allowed++;
        if (concurrency) {
          held.addLast(new Object[] {key, cost});
        }
      } else {
        refused++;
      }
    }
    assertTrue(allowed > 0, "some allowed");
    assertTrue(refused > 0, "some refused");
  }

  private static long advance(Random random, long interval, long size, long period) {
    int pick = random.nextInt(20);
    if (pick < 5) {
      return 0;
    }
    if (pick < 12) {
      return 1 + (long) (random.nextDouble() * interval);
    }
    if (pick < 15) {
      return 1 + random.nextInt(1000);
    }
    if (pick < 19) {
      return (long) (random.nextDouble() * Math.min(Math.max(interval * (double) size, period), 1e16));
    }
    return (long) (random.nextDouble() * TimeUnit.DAYS.toNanos(3));
  }

  private static long cost(Random random, long size) {
    int pick = random.nextInt(40);
    if (pick < 24) {
      return 1;
    }
    if (pick < 34) {
      return 1 + (long) (random.nextDouble() * Math.min(size, 3000));
    }
    if (pick < 36) {
      return Math.min(size, 3000);
    }
    if (pick < 38) {
      return size + 1;
    }
    if (pick < 39) {
      return 0;
    }
    return 2 * size + 3;
  }

  // ---------------------------------------------------------------- calendar quotas

  static Stream<Arguments> calendars() {
    return Stream.of(
        Arguments.of(5L, CalendarQuota.Unit.DAY, "UTC"),
        Arguments.of(100L, CalendarQuota.Unit.DAY, "Europe/Paris"),
        Arguments.of(7L, CalendarQuota.Unit.WEEK, "America/New_York"),
        Arguments.of(1000L, CalendarQuota.Unit.MONTH, "Asia/Kathmandu"),
        Arguments.of(3L, CalendarQuota.Unit.YEAR, "Australia/Lord_Howe"),
        Arguments.of(50L, CalendarQuota.Unit.DAY, "+05:30"));
  }

  @ParameterizedTest(name = "{0} per {1} in {2}")
  @MethodSource("calendars")
  void calendarQuotasDecideAlikeAcrossDstAndMonths(long limit, CalendarQuota.Unit unit, String zone) {
    CalendarQuota quota = new CalendarQuota(limit, unit, ZoneId.of(zone));
    long nominal = quota.policy().windowSeconds() * S;
    // From mid-March: the spring DST changes of Europe and North America fall in the traffic.
    Pair stores = new Pair(quota, 1_773_000_000L * S + limit);
    Random random = new Random(limit * 7 + unit.ordinal());
    int allowed = 0;
    int refused = 0;
    for (int i = 0; i < 1000; i++) {
      stores.clock.advanceNanos(advance(random, Math.max(1, nominal / limit), limit, nominal));
      String key = random.nextInt(4) == 0 ? "b" : "a";
      if (random.nextInt(10) == 0) {
        stores.adjust(key, random.nextInt((int) (2 * limit + 1)) - limit);
        continue;
      }
      Verdict v = stores.decide(key, cost(random, limit), "calendar request " + i);
      if (v.allowed) {
        allowed++;
      } else {
        refused++;
      }
    }
    assertTrue(allowed > 0 && refused > 0, allowed + " allowed, " + refused + " refused");
  }

  @Test
  void aCalendarWindowFollowsRedisTimeWhenTheHostClockIsFarOff() {
    CalendarQuota quota = new CalendarQuota(2, CalendarQuota.Unit.DAY, ZoneId.of("Europe/Paris"));
    ManualClock redisTime = new ManualClock(T0 + 3 * HOUR);
    ManualClock hostClock = new ManualClock(T0 - 40 * DAY);
    RedisCalendarStore redis =
        new RedisCalendarStore(backend, RedisTestSupport.uniqueRule("cal"), quota, hostClock, redisTime);
    LocalLimiterStore<CalendarQuota.State> local = new LocalLimiterStore<>(quota, redisTime, 100);
    Verdict expected = new Verdict();
    Verdict actual = new Verdict();
    for (int i = 0; i < 3; i++) {
      local.decide("k", 1, expected);
      redis.decide("k", 1, actual);
      assertEquals(expected.toString(), actual.toString(), "request " + i);
    }
    assertEquals(false, actual.allowed);
  }

  // ---------------------------------------------------------------- bounds

  @Test
  void rulesBeyondLuaPrecisionAreRefusedByName() {
    // A fixed window of 60 days: 5.2e15 ns > 2^52.
    RateLimitAlgorithm<?> longWindow = algorithm(AlgorithmKind.FIXED_WINDOW, 10, 60 * DAY, 10, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RedisAlgorithmStore.checkFitsLua("quarterly", longWindow));
    assertTrue(e.getMessage().contains("'quarterly'"), e.getMessage());
    assertTrue(e.getMessage().contains("2^53"), e.getMessage());
    for (AlgorithmKind kind : new AlgorithmKind[] {AlgorithmKind.SLIDING_WINDOW, AlgorithmKind.SLIDING_LOG}) {
      RateLimitAlgorithm<?> a = algorithm(kind, 10, 60 * DAY, 10, 0);
      assertThrows(IllegalArgumentException.class, () -> RedisAlgorithmStore.checkFitsLua("r", a));
    }
    RateLimitAlgorithm<?> slowGcra = algorithm(AlgorithmKind.GCRA, 1, DAY, 1000, 0);
    assertThrows(IllegalArgumentException.class, () -> RedisAlgorithmStore.checkFitsLua("r", slowGcra));
  }
}
