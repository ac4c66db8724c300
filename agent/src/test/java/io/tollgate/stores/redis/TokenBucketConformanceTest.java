package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
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
 * The Redis script against {@link TokenBucket} for the same traffic: the same decisions, remaining,
 * retry-after and reset, and the same stored {@code tat} and {@code tatFraction}. The reference is
 * {@link TokenBucket#decide} on per-key states, and {@link LocalLimiterStore} too wherever its
 * real-time key expiry cannot interfere with the manual clock (keys idle a minute or more).
 *
 * <p>How Redis time is made deterministic: the script takes an optional "now" (ARGV[10], epoch
 * nanoseconds) that only tests pass ({@link RedisGcraStore}'s package-private constructor with a
 * clock); both stores read the same {@link ManualClock}. The production path, Redis TIME, is checked
 * separately ({@link #redisTimeIsTheClock}).
 */
@ExtendWith(RedisServerExtension.class)
class TokenBucketConformanceTest {

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  static Stream<Arguments> specs() {
    long s = TimeUnit.SECONDS.toNanos(1);
    long min = TimeUnit.MINUTES.toNanos(1);
    long hour = TimeUnit.HOURS.toNanos(1);
    long day = TimeUnit.DAYS.toNanos(1);
    return Stream.of(
        Arguments.of(5L, min, 5L, 1L),
        Arguments.of(7L, min, 7L, 1L),
        Arguments.of(7L, min, 3L, 1L),
        Arguments.of(3L, 7 * s, 10L, 1L),
        Arguments.of(13L, min, 1000L, 1L),
        Arguments.of(1000L, s, 50L, 1L),
        Arguments.of(1L, hour, 1L, 1L),
        Arguments.of(1_000_000_000L, s, 1L, 1L),
        Arguments.of(7L, 3L, 5L, 1L),
        Arguments.of(999_983L, 10 * s + 7, 12_345L, 1L),
        Arguments.of(1_000_000L, day, 1_000_000L, 1_000L),
        Arguments.of(50_000_000L, day, 50_000_000L, 1_000_000L),
        Arguments.of(90_000_000L, 10_000 * day, 90_000_000L, 1_000_000_000L),
        // Near the Lua bound on time spans: a refill of 4e15 ns (~46 days) in nanosecond units.
        Arguments.of(1L, 4_000_000_000_000_000L, 1L, 1L),
        Arguments.of(3L, 4_000_000_000_000_001L, 3L, 1L));
  }

  @ParameterizedTest(name = "{0} per {1} ns, burst {2}")
  @MethodSource("specs")
  void sameAsLocal(long limit, long periodNanos, long burst, long expectedUnit, RedisServer server) {
    LimitSpec spec = new LimitSpec(limit, periodNanos, burst);
    TokenBucket bucket = new TokenBucket(spec);
    assertEquals(expectedUnit, bucket.unitNanos(), "unit of " + spec);
    runConformance(backend, server, spec, 1000, limit * 31 + burst);
  }

  /** Replays random traffic on both stores and compares every outcome and the stored state. */
  static void runConformance(
      RedisBackend backend, RedisServer server, LimitSpec spec, int requests, long seed) {
    runConformance(backend, server, spec, requests, seed, 0);
  }

  /**
   * As above, with key "a" and {@code extraKeys + 1} others; with a null {@code server} the stored
   * state is not read back (for Redis Cluster, where a key lives on one node of several).
   */
  static void runConformance(
      RedisBackend backend, RedisServer server, LimitSpec spec, int requests, long seed,
      int extraKeys) {
    TokenBucket bucket = new TokenBucket(spec);
    ManualClock clock = new ManualClock(1_764_000_000_123_456_789L + seed % 1_000_003L);
    LocalLimiterStore<TokenBucket.State> local = new LocalLimiterStore<>(bucket, clock, 1_000);
    String rule = RedisTestSupport.uniqueRule("conformance");
    RedisGcraStore redis = new RedisGcraStore(backend, rule, bucket, clock);
    java.util.Map<String, TokenBucket.State> reference = new java.util.HashMap<>();
    // LocalLimiterStore forgets keys after idleNanosUntilFresh of real time (Caffeine's ticker),
    // which the manual clock does not follow: compare it only where that takes a minute or more.
    boolean compareLocalStore = bucket.idleNanosUntilFresh() >= TimeUnit.MINUTES.toNanos(1);
    Verdict viaLocal = new Verdict();
    Verdict expected = new Verdict();
    Verdict actual = new Verdict();
    Random random = new Random(seed);
    long intervalNanos = Math.max(1, spec.periodNanos() / spec.limit());
    long burst = spec.burst();
    int allowed = 0;
    int refused = 0;
    java.util.ArrayDeque<String> history = new java.util.ArrayDeque<>();
    for (int i = 0; i < requests; i++) {
      clock.advanceNanos(advance(random, intervalNanos, burst));
      String key =
          random.nextInt(4) == 0 ? "b" + random.nextInt(extraKeys + 1) : "a";
      long cost = cost(random, burst);
      TokenBucket.State state = reference.computeIfAbsent(key, k -> bucket.newState());
      bucket.decide(state, clock.nowNanos(), cost, expected);
      if (compareLocalStore) {
        local.decide(key, cost, viaLocal);
        assertEquals(expected.toString(), viaLocal.toString(), "LocalLimiterStore agrees");
      }
      redis.decide(key, cost, actual);
      String where =
          "request " + i + " of " + spec + " at " + clock.nowNanos() + " cost " + cost + " key "
              + key + ": local " + expected + ", redis " + actual + "; before: " + history;
      history.addLast(i + ": at " + clock.nowNanos() + " cost " + cost + " key " + key + " -> "
          + expected + " | " + actual);
      if (history.size() > 4) {
        history.removeFirst();
      }
      assertEquals(expected.allowed, actual.allowed, where);
      assertEquals(expected.remaining, actual.remaining, where);
      assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, where);
      assertEquals(expected.resetNanos, actual.resetNanos, where);
      assertEquals(expected.nextUnitNanos, actual.nextUnitNanos, where + ": next unit");
      if (expected.allowed) {
        allowed++;
      } else {
        refused++;
      }
      if (key.equals("a") && server != null) {
        TokenBucket.State mirror = reference.get("a");
        @SuppressWarnings("unchecked")
        List<Object> stored =
            (List<Object>) server.call("HMGET", RedisKeys.bucketKey(rule, "token-bucket", "a"), "tat", "tatFraction");
        if (stored.get(0) == null) {
          assertEquals(0L, mirror.tat(), where);
        } else {
          assertEquals(Long.toString(mirror.tat()), stored.get(0), "tat after " + where);
          assertEquals(
              Long.toString(mirror.tatFraction()), stored.get(1), "tatFraction after " + where);
        }
      }
    }
    assertTrue(allowed > 0, "some allowed");
    assertTrue(refused > 0, "some refused");
  }

  private static long advance(Random random, long intervalNanos, long burst) {
    int pick = random.nextInt(20);
    if (pick < 5) {
      return 0;
    }
    if (pick < 12) {
      return 1 + (long) (random.nextDouble() * intervalNanos);
    }
    if (pick < 15) {
      return 1 + random.nextInt(1000);
    }
    if (pick < 19) {
      return (long) (random.nextDouble() * Math.min(intervalNanos * (double) burst, 1e16));
    }
    return (long) (random.nextDouble() * TimeUnit.DAYS.toNanos(3));
  }

  private static long cost(Random random, long burst) {
    int pick = random.nextInt(40);
    if (pick < 24) {
      return 1;
    }
    if (pick < 34) {
      return 1 + (long) (random.nextDouble() * burst);
    }
    if (pick < 36) {
      return burst;
    }
    if (pick < 38) {
      return burst + 1;
    }
    if (pick < 39) {
      return 0;
    }
    return 2 * burst + 3;
  }

  @Test
  void redisTimeIsTheClock(RedisServer server) {
    LimitSpec spec = LimitSpec.of(5, TimeUnit.HOURS.toNanos(1));
    String rule = RedisTestSupport.uniqueRule("time");
    RedisGcraStore redis = new RedisGcraStore(backend, rule, new TokenBucket(spec));
    Verdict verdict = new Verdict();
    for (int i = 0; i < 5; i++) {
      redis.decide("k", 1, verdict);
      assertTrue(verdict.allowed, "request " + i + ": " + verdict);
      assertEquals(4 - i, verdict.remaining);
    }
    redis.decide("k", 1, verdict);
    assertFalse(verdict.allowed, verdict.toString());
    long interval = TimeUnit.MINUTES.toNanos(12);
    assertTrue(
        verdict.retryAfterNanos > interval - TimeUnit.SECONDS.toNanos(30)
            && verdict.retryAfterNanos <= interval,
        "retry after about 12 minutes: " + verdict);

    @SuppressWarnings("unchecked")
    List<Object> time = (List<Object>) server.call("TIME");
    long redisNowNanos =
        Long.parseLong((String) time.get(0)) * 1_000_000_000L
            + Long.parseLong((String) time.get(1)) * 1_000L;
    String tat = (String) server.call("HGET", RedisKeys.bucketKey(rule, "token-bucket", "k"), "tat");
    long ahead = Long.parseLong(tat) - redisNowNanos;
    assertTrue(
        ahead > TimeUnit.MINUTES.toNanos(59) && ahead <= TimeUnit.HOURS.toNanos(1),
        "tat is an hour ahead of Redis TIME: " + ahead);
    Object ttl = server.call("PTTL", RedisKeys.bucketKey(rule, "token-bucket", "k"));
    assertTrue((Long) ttl > 0 && (Long) ttl <= TimeUnit.HOURS.toMillis(1) + 1, "ttl " + ttl);
  }

  @Test
  void redisClockSteppingBackCountsAsAnEmptyBucketNotAFarFuture() {
    // Redis TIME is the wall clock of whichever node answers: it can step back (NTP, failover).
    LimitSpec spec = LimitSpec.of(5, TimeUnit.MINUTES.toNanos(1));
    ManualClock clock = new ManualClock(1_764_000_000_000_000_000L);
    RedisGcraStore redis =
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule("back"), new TokenBucket(spec),
            clock);
    Verdict verdict = new Verdict();
    redis.decide("k", 1, verdict);
    assertTrue(verdict.allowed);
    clock.advanceNanos(-TimeUnit.DAYS.toNanos(10));
    redis.decide("k", 1, verdict);
    assertFalse(verdict.allowed, "no tokens minted by going back: " + verdict);
    assertEquals(TimeUnit.SECONDS.toNanos(12), verdict.retryAfterNanos, "one interval, not 10 days");
    assertEquals(TimeUnit.MINUTES.toNanos(1), verdict.resetNanos, "full again after burst * T");
    assertEquals(0, verdict.remaining);
  }

  @Test
  void refusedRequestsWriteNothing(RedisServer server) {
    LimitSpec spec = LimitSpec.of(1, TimeUnit.HOURS.toNanos(1));
    String rule = RedisTestSupport.uniqueRule("nowrite");
    RedisGcraStore redis = new RedisGcraStore(backend, rule, new TokenBucket(spec));
    Verdict verdict = new Verdict();
    redis.decide("k", 2, verdict);
    assertFalse(verdict.allowed);
    assertEquals(spec.periodNanos(), verdict.retryAfterNanos, "cost above burst: one period");
    assertNull(server.call("HGET", RedisKeys.bucketKey(rule, "token-bucket", "k"), "tat"));
  }

  @Test
  void rulesBeyondLuaPrecisionAreRefused() {
    // Java computes this in nanoseconds; a bucket refilling over ~1000 days does not fit 2^53 ns.
    LimitSpec spec = new LimitSpec(1, TimeUnit.DAYS.toNanos(1), 1000);
    TokenBucket bucket = new TokenBucket(spec);
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new RedisGcraStore(backend, "big", bucket));
    assertTrue(e.getMessage().contains("2^53"), e.getMessage());
    assertTrue(e.getMessage().contains("'big'"), e.getMessage());
  }

  @Test
  void waitsAreBoundedByTheTimeout() {
    assertEquals(
        Duration.ofSeconds(5), backend.settings().timeout(), "tests use a generous timeout");
  }
}
