package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code lease-tokens: N} on a real Redis of the test's own, with the test's clock as Redis's (the
 * script's time override): a hot key costs one round trip per N requests, a cold key is not leased,
 * and instances leasing from one bucket stay within N - 1 tokens each of what a round trip per
 * request decides, checked after every request against a plain store fed the same traffic.
 */
@ExtendWith(RedisServerExtension.class)
class TokenLeaseStoreTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final int N = 10;

  private final ManualClock clock = ManualClock.atEpochMillis(System.currentTimeMillis());

  @Test
  void aHotKeyCostsOneRoundTripPerLeaseWithTheSameAnswers(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(10_000, SECOND, 10_000);
      TokenLeaseStore leased = new TokenLeaseStore(redisStore(backend, spec), clock, N, 1_000);
      RedisGcraStore exact = redisStore(backend, spec);
      Verdict withLease = new Verdict();
      Verdict reference = new Verdict();
      exact.decide("warm-up", 1, reference); // loads the script (NOSCRIPT, then EVAL) first
      long calls = RefusalCacheStoreTest.scriptCalls(server);
      for (int i = 0; i < 1_000; i++) {
        leased.decide("hot", 1, withLease);
        exact.decide("hot", 1, reference);
        assertTrue(withLease.allowed, "request " + i);
        assertEquals(reference.remaining, withLease.remaining, "remaining after request " + i);
      }
      long leasedCalls = RefusalCacheStoreTest.scriptCalls(server) - calls - 1_000;
      assertEquals(leased.passedOn(), leasedCalls, "one script call per decision passed on");
      assertTrue(leasedCalls <= N + 1_000 / N, "round trips for 1000 requests: " + leasedCalls);
      assertEquals(1_000, leased.passedOn() + leased.grantedLocally());
    }
  }

  @Test
  void coldKeysAndOtherCostsAreNotLeased(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(100, SECOND, 100);
      TokenLeaseStore leased = new TokenLeaseStore(redisStore(backend, spec), clock, N, 1_000);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 200; i++) {
        leased.decide("cold-" + i, 1, verdict);
        assertEquals(99, verdict.remaining, "one token taken, not a lease");
        clock.advanceNanos(SECOND / 100);
      }
      for (int i = 0; i < 50; i++) {
        leased.decide("dear", 2, verdict);
      }
      assertEquals(0, leased.grantedLocally());
      assertEquals(250, leased.passedOn());
    }
  }

  @Test
  void nearTheLimitEveryRequestIsOneRoundTrip(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RedisGcraStore shared = redisStore(backend, new LimitSpec(25, SECOND, 25));
      TokenLeaseStore leased = new TokenLeaseStore(shared, clock, N, 1_000);
      Verdict verdict = new Verdict();
      shared.decide("warm-up", 1, verdict); // loads the script (NOSCRIPT, then EVAL) first
      long calls = RefusalCacheStoreTest.scriptCalls(server);
      int allowed = 0;
      for (int i = 0; i < 60; i++) {
        leased.decide("k", 1, verdict);
        allowed += verdict.allowed ? 1 : 0;
      }
      assertEquals(25, allowed, "exactly the burst, however it was taken");
      assertEquals(leased.passedOn(), RefusalCacheStoreTest.scriptCalls(server) - calls,
          "no request needed two round trips");
      assertTrue(leased.grantedLocally() > 0, "leases were used: " + leased.grantedLocally());
    }
  }

  @Test
  void concurrentRequestsGetExactlyTheBurst(@PrivateRedis RedisServer server) throws Exception {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      TokenLeaseStore leased =
          new TokenLeaseStore(
              redisStore(backend, new LimitSpec(1_000, TimeUnit.DAYS.toNanos(1), 1_000)), clock, N,
              1_000);
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Callable<Integer>> work = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          work.add(
              () -> {
                Verdict verdict = new Verdict();
                int allowed = 0;
                for (int i = 0; i < 500; i++) {
                  leased.decide("hot", 1, verdict);
                  allowed += verdict.allowed ? 1 : 0;
                }
                return allowed;
              });
        }
        int allowed = 0;
        for (Future<Integer> result : threads.invokeAll(work)) {
          allowed += result.get();
        }
        assertEquals(1_000, allowed, "4000 requests on 8 threads, burst 1000, the clock still");
        assertTrue(leased.grantedLocally() > 0, "leases were used: " + leased.grantedLocally());
      } finally {
        threads.shutdownNow();
      }
    }
  }

  /**
   * Three instances leasing from one bucket (1000/s, burst 200), with traffic above and below the
   * rate, checked after every request against the documented bound: every request they allowed
   * also fits a bucket whose burst is larger by 3 x (N - 1) (the tokens they may hold: they never
   * admit more), and together they have allowed at least what a plain store fed the same requests
   * allowed, less 3 x (N - 1) (the tokens held unused).
   */
  @Test
  void threeInstancesStayWithinTheirLeasesOfTheExactCount(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(1_000, SECOND, 200);
      int held = 3 * (N - 1);
      RedisGcraStore shared = redisStore(backend, spec);
      TokenLeaseStore[] instances = new TokenLeaseStore[3];
      for (int i = 0; i < 3; i++) {
        instances[i] = new TokenLeaseStore(shared, clock, N, 1_000);
      }
      RedisGcraStore exact = redisStore(backend, spec);
      LocalLimiterStore<TokenBucket.State> bound =
          new LocalLimiterStore<>(
              new TokenBucket(new LimitSpec(1_000, SECOND, 200 + held)), clock, 10);
      Verdict withLease = new Verdict();
      Verdict reference = new Verdict();
      Verdict withinBound = new Verdict();
      Random random = new Random(7);
      long allowedLeased = 0;
      long allowedExact = 0;
      long mostBehind = 0;
      for (int i = 0; i < 20_000; i++) {
        // Bursts above the rate and quiet spells below it, so the bucket empties and fills.
        long gapMicros = (i / 2_000) % 2 == 0 ? random.nextInt(800) : random.nextInt(3_000);
        clock.advanceNanos(TimeUnit.MICROSECONDS.toNanos(gapMicros));
        instances[random.nextInt(3)].decide("hot", 1, withLease);
        exact.decide("hot", 1, reference);
        allowedLeased += withLease.allowed ? 1 : 0;
        allowedExact += reference.allowed ? 1 : 0;
        if (withLease.allowed) {
          bound.decide("hot", 1, withinBound);
          assertTrue(withinBound.allowed,
              "request " + i + " allowed beyond a burst of 200 + " + held);
        }
        mostBehind = Math.max(mostBehind, allowedExact - allowedLeased);
        assertTrue(allowedLeased >= allowedExact - held,
            "after request " + i + ": leased " + allowedLeased + ", exact " + allowedExact);
      }
      long local = 0;
      for (TokenLeaseStore instance : instances) {
        local += instance.grantedLocally();
      }
      System.out.println("leases: allowed " + allowedLeased + " (exact " + allowedExact
          + "), at most " + mostBehind + " behind, granted locally " + local + " of 20000");
      assertTrue(local > 2_000, "leases were used: " + local);
      assertTrue(allowedExact < 19_000 && allowedExact > 5_000,
          "traffic both above and below the limit: " + allowedExact);
    }
  }

  private RedisGcraStore redisStore(RedisBackend backend, LimitSpec spec) {
    return new RedisGcraStore(
        backend, RedisTestSupport.uniqueRule("lease"), new TokenBucket(spec), clock);
  }
}
