package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code refusal-cache: true} on a real Redis of the test's own, whose script calls are counted
 * with {@code INFO commandstats}: a flood on a refused key reaches Redis once per refusal period,
 * other keys are decided by Redis as before, and the decisions are the same as without the cache.
 * Redis's clock is replaced by the test's (the script's time override), so that "the refusal
 * period has passed" is exact, not a wait.
 */
@ExtendWith(RedisServerExtension.class)
class RefusalCacheStoreTest {

  private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);
  /** limit 2 per minute, burst 2: a token every 30 s. */
  private static final LimitSpec TWO_PER_MINUTE = new LimitSpec(2, MINUTE, 2);

  private final ManualClock clock = ManualClock.atEpochMillis(System.currentTimeMillis());

  @Test
  void aFloodOnOneRefusedKeyReachesRedisOncePerRefusalPeriod(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RefusalCacheStore store = cached(backend, 1_000);
      Verdict verdict = new Verdict();
      store.decide("hot", 1, verdict);
      store.decide("hot", 1, verdict);
      long before = scriptCalls(server);
      store.decide("hot", 1, verdict);
      assertFalse(verdict.allowed, "the third of 2 per minute");
      long retry = verdict.retryAfterNanos;
      assertEquals(TimeUnit.SECONDS.toNanos(30), retry, "a token every 30 s");
      assertEquals(before + 1, scriptCalls(server), "that refusal came from Redis");

      for (int i = 0; i < 10_000; i++) {
        store.decide("hot", 1, verdict);
        assertFalse(verdict.allowed);
        assertEquals(0, verdict.remaining);
        assertEquals(retry, verdict.retryAfterNanos, "the clock has not moved");
      }
      assertEquals(before + 1, scriptCalls(server), "the flood stayed in this process");
      assertEquals(10_000, store.answeredLocally());

      store.decide("cold", 1, verdict);
      assertTrue(verdict.allowed, "another key is not affected");
      assertEquals(before + 2, scriptCalls(server), "and is decided by Redis");

      clock.advanceNanos(retry - 1);
      store.decide("hot", 1, verdict);
      assertFalse(verdict.allowed);
      assertEquals(1, verdict.retryAfterNanos, "the Retry-After counts down with the clock");
      assertEquals(before + 2, scriptCalls(server));

      clock.advanceNanos(1);
      store.decide("hot", 1, verdict);
      assertTrue(verdict.allowed, "the token that came back, from Redis");
      store.decide("hot", 1, verdict);
      assertFalse(verdict.allowed, "refused by Redis again: the next period starts");
      for (int i = 0; i < 1_000; i++) {
        store.decide("hot", 1, verdict);
        assertFalse(verdict.allowed);
      }
      assertEquals(before + 4, scriptCalls(server), "one refusal per period reached Redis");
    }
  }

  /**
   * The same traffic, with its costs and pauses, through a cached store and a plain one (each on
   * its own rule): every decision is the same, and the cached store asked Redis less often.
   */
  @Test
  void decisionsAreTheSameAsWithoutTheCache(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RefusalCacheStore cached = cached(backend, 1_000);
      RedisGcraStore plain = redisStore(backend);
      Random random = new Random(42);
      Verdict withCache = new Verdict();
      Verdict without = new Verdict();
      int refused = 0;
      for (int i = 0; i < 3_000; i++) {
        String key = "client-" + random.nextInt(3);
        long cost = random.nextInt(10) == 0 ? 2 : 1;
        if (random.nextInt(20) == 0) {
          clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(20_000)));
        }
        cached.decide(key, cost, withCache);
        plain.decide(key, cost, without);
        String step = "request " + i + " (" + key + ", cost " + cost + ")";
        assertEquals(without.allowed, withCache.allowed, step);
        if (!without.allowed) {
          refused++;
          assertTrue(withCache.retryAfterNanos <= without.retryAfterNanos, step + ": never later");
          assertEquals(without.retryAfterNanos, withCache.retryAfterNanos, step);
        }
      }
      assertTrue(refused > 2_000, "mostly refused traffic: " + refused);
      assertTrue(cached.answeredLocally() > 1_000, "answered here: " + cached.answeredLocally());
      assertEquals(3_000, cached.answeredLocally() + cached.passedOn());
    }
  }

  @Test
  void onlyARequestOfTheRefusedCostIsAnsweredHere(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RefusalCacheStore store = cached(backend, 1_000);
      Verdict verdict = new Verdict();
      store.decide("k", 1, verdict);
      store.decide("k", 2, verdict);
      assertFalse(verdict.allowed, "2 tokens asked, 1 left");
      assertEquals(1, verdict.remaining);
      long retry = verdict.retryAfterNanos;
      store.decide("k", 2, verdict);
      assertFalse(verdict.allowed, "the same cost: refused here");
      assertEquals(1, verdict.remaining, "with what Redis reported");
      assertEquals(retry, verdict.retryAfterNanos);
      assertEquals(1, store.answeredLocally());
      store.decide("k", 1, verdict);
      assertTrue(verdict.allowed, "cheaper: Redis has the token");
      store.decide("k", 2, verdict);
      assertFalse(verdict.allowed);
      assertTrue(verdict.retryAfterNanos > retry, "the token taken made the wait longer: " + verdict);
      assertEquals(4, store.passedOn(), "after an allowed request, Redis is asked again");
    }
  }

  @Test
  void aRefundThroughThisInstanceForgetsTheRefusal(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RefusalCacheStore store = cached(backend, 1_000);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 3; i++) {
        store.decide("k", 1, verdict);
      }
      assertFalse(verdict.allowed);
      store.adjust("k", -1);
      store.decide("k", 1, verdict);
      assertEquals(4, store.passedOn(), "asked Redis again after the refund");
      assertEquals(0, store.answeredLocally());
    }
  }

  @Test
  void aRefusedKeyStaysRefusedWhileRedisIsDown(@PrivateRedis RedisServer server) {
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri(server.uri())
            .withTimeout(Duration.ofMillis(500))
            .withBreaker(3, Duration.ofSeconds(1));
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      RedisGcraStore shared = redisStore(backend);
      FailurePolicyStore store =
          new FailurePolicyStore(
              shared, new RefusalCacheStore(shared, clock, 1_000), OnFailure.ALLOW, () -> 1, clock,
              1_000);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 3; i++) {
        store.decide("hot", 1, verdict);
      }
      assertFalse(verdict.allowed);

      server.kill();
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("hot", 1, verdict));
      assertFalse(verdict.allowed, "Redis's refusal still holds: 429, not on-failure");
      assertEquals(DecisionSource.FAIL_OPEN, store.decideWithSource("other", 1, verdict));
      assertTrue(verdict.allowed, "another key gets the on-failure policy");
    }
  }

  @Test
  void memoryIsBoundedByMaxKeys(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RefusalCacheStore store =
          new RefusalCacheStore(
              new RedisGcraStore(
                  backend, RedisTestSupport.uniqueRule("one"),
                  new TokenBucket(new LimitSpec(1, MINUTE, 1)), clock),
              clock, 50);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 500; i++) {
        store.decide("k" + i, 1, verdict);
        store.decide("k" + i, 1, verdict);
        assertFalse(verdict.allowed);
      }
      store.cleanUp();
      assertTrue(store.rememberedKeys() <= 50, "remembered: " + store.rememberedKeys());

      clock.advanceNanos(MINUTE + TimeUnit.SECONDS.toNanos(2)); // past the expiry wheel's tick
      store.cleanUp();
      assertEquals(0, store.rememberedKeys(), "every refusal has ended");
    }
  }

  private RedisGcraStore redisStore(RedisBackend backend) {
    return new RedisGcraStore(
        backend, RedisTestSupport.uniqueRule("refusals"), new TokenBucket(TWO_PER_MINUTE), clock);
  }

  private RefusalCacheStore cached(RedisBackend backend, long maxKeys) {
    return new RefusalCacheStore(redisStore(backend), clock, maxKeys);
  }

  private static final Pattern CALLS = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+)");

  /** Script runs on the server so far ({@code EVALSHA} and {@code EVAL}). */
  static long scriptCalls(RedisServer server) {
    Matcher m = CALLS.matcher(String.valueOf(server.call("INFO", "commandstats")));
    long calls = 0;
    while (m.find()) {
      calls += Long.parseLong(m.group(2));
    }
    return calls;
  }
}
