package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code concurrency} algorithm on Redis, across instances (two stores on one rule stand for two
 * agents): permits are shared, given back by whoever took them, and come back on their own when
 * their lease ends, so that an instance that dies holding permits does not hold them forever.
 */
@ExtendWith(RedisServerExtension.class)
class RedisConcurrencyLeaseTest {

  private static final long T0 = 1_764_028_800_000_000_000L;
  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  private static RedisConcurrencyStore instance(String rule, long limit, Clock clock) {
    return new RedisConcurrencyStore(
        backend, rule, new Concurrency(LimitSpec.of(limit, TimeUnit.MINUTES.toNanos(1))), clock);
  }

  @Test
  void permitsAreSharedAndGivenBackByTheirHolder() {
    String rule = RedisTestSupport.uniqueRule("permits");
    ManualClock clock = new ManualClock(T0);
    RedisConcurrencyStore a = instance(rule, 2, clock);
    RedisConcurrencyStore b = instance(rule, 2, clock);
    Verdict verdict = new Verdict();
    a.decide("k", 1, verdict);
    assertTrue(verdict.allowed);
    b.decide("k", 1, verdict);
    assertTrue(verdict.allowed);
    assertEquals(0, verdict.remaining);
    a.decide("k", 1, verdict);
    assertFalse(verdict.allowed, "both permits are held, one by each instance");
    assertFalse(b.releaseShared("other", 1), "b holds nothing for another key");
    b.release("k", 1);
    assertEquals(0, b.heldHere());
    a.decide("k", 1, verdict);
    assertTrue(verdict.allowed, "b's permit is back");
    b.release("k", 1); // b holds none any more: gives back nothing of a's
    b.decide("k", 1, verdict);
    assertFalse(verdict.allowed, "a still holds two");
  }

  @Test
  void aDeadInstancesPermitsComeBackWhenTheirLeaseEnds() {
    String rule = RedisTestSupport.uniqueRule("lease");
    ManualClock clock = new ManualClock(T0);
    RedisConcurrencyStore dead = instance(rule, 3, clock);
    RedisConcurrencyStore alive = instance(rule, 3, clock);
    Verdict verdict = new Verdict();
    dead.decide("k", 3, verdict);
    assertTrue(verdict.allowed);
    clock.advanceNanos(TimeUnit.SECONDS.toNanos(RedisConcurrencyStore.LEASE_SECONDS) - 1_000_000);
    alive.decide("k", 1, verdict);
    assertFalse(verdict.allowed, "a millisecond before the lease ends, the permits are held");
    clock.advanceNanos(1_000_000);
    alive.decide("k", 1, verdict);
    assertTrue(verdict.allowed, "the dead instance's permits came back with their lease: " + verdict);
    assertEquals(2, verdict.remaining);
  }

  @Test
  void permitsExpireOnRedisTimeToo(RedisServer server) {
    String rule = RedisTestSupport.uniqueRule("ttl");
    RedisConcurrencyStore store = instance(rule, 3, null);
    Verdict verdict = new Verdict();
    store.decide("k", 2, verdict);
    assertTrue(verdict.allowed);
    Object ttl = server.call("PTTL", RedisKeys.bucketKey(rule, "concurrency", "k"));
    assertTrue(
        (Long) ttl > 0 && (Long) ttl <= TimeUnit.SECONDS.toMillis(RedisConcurrencyStore.LEASE_SECONDS),
        "the key lives as long as its last lease: " + ttl);
    store.release("k", 2);
    assertEquals(0L, server.call("EXISTS", RedisKeys.bucketKey(rule, "concurrency", "k")), "nothing left held");
  }
}
