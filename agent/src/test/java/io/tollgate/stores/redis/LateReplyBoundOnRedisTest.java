package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.FaultyProxy;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 28's last goal on a real Redis: three instances (each its own connection, through a proxy
 * that holds every reply back longer than the {@code timeout} and shorter than {@code max-wait}),
 * flooded unevenly, with a bulkhead of 2 so that most decisions are made here, late, and some by
 * Redis in time: together they admit at most 1.05 x the limit, and nobody falls to the outage
 * policy. (Before {@link LateReplyLedger}, the instance with the fewest of Redis's tokens admitted
 * the rest of its share on top of the limit.) No timed assertions: counts only.
 */
@ExtendWith(RedisServerExtension.class)
class LateReplyBoundOnRedisTest {

  private static final int LIMIT = 60;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  /** Threads flooding each instance: uneven, as a load balancer under a flood leaves them. */
  private static final int[] THREADS = {8, 4, 1};
  private static final int DECISIONS_PER_THREAD = 40;

  @ParameterizedTest(name = "replies {0} ms late, on-failure {1}")
  @CsvSource({
    "100, DENY",
    "100, ALLOW",
    "300, LOCAL",
  })
  void unevenlyFloodedInstancesAdmitAtMostTheLimitWhenRepliesComeLate(
      long lateMillis, OnFailure policy, @PrivateRedis RedisServer server) throws Exception {
    String rule = RedisTestSupport.uniqueRule("late-bound");
    List<RedisBackend> backends = new ArrayList<>();
    try (FaultyProxy proxy = new FaultyProxy(server.port())) {
      List<FailurePolicyStore> instances = new ArrayList<>();
      for (int i = 0; i < THREADS.length; i++) {
        RedisBackend backend = RedisBackend.connect(
            RedisConnectionSettings.uri(proxy.uri()).withMaxWaitingThreads(2));
        backends.add(backend);
        assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
        RedisGcraStore redis =
            new RedisGcraStore(backend, rule, new TokenBucket(LimitSpec.of(LIMIT, HOUR)));
        FailurePolicyStore instance =
            new FailurePolicyStore(redis, policy, () -> THREADS.length, Clock.system(), 1_000);
        instances.add(instance);
        // the script loaded and the connection warm, as in a running app
        assertEquals(DecisionSource.BACKEND, instance.decideWithSource("warm", 1, new Verdict()));
      }
      proxy.delayReplies(lateMillis);

      AtomicInteger admitted = new AtomicInteger();
      AtomicInteger byPolicy = new AtomicInteger();
      AtomicInteger decidedHere = new AtomicInteger();
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newCachedThreadPool();
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < THREADS.length; i++) {
          FailurePolicyStore instance = instances.get(i);
          for (int t = 0; t < THREADS[i]; t++) {
            done.add(pool.submit(() -> {
              start.await();
              for (int d = 0; d < DECISIONS_PER_THREAD; d++) {
                Verdict verdict = new Verdict();
                DecisionSource source = instance.decideWithSource("k", 1, verdict);
                if (verdict.allowed) {
                  admitted.incrementAndGet();
                }
                if (source == DecisionSource.FAIL_OPEN || source == DecisionSource.FAIL_CLOSED) {
                  byPolicy.incrementAndGet();
                } else if (source == DecisionSource.DEGRADED_LOCAL) {
                  decidedHere.incrementAndGet();
                }
              }
              return null;
            }));
          }
        }
        start.countDown();
        for (Future<?> f : done) {
          f.get(5, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      String counts = admitted + " admitted of " + LIMIT + ", " + decidedHere
          + " decided here (late), " + byPolicy + " by on-failure";
      System.out.println("[late-bound] replies " + lateMillis + " ms late, " + policy + ": "
          + counts);
      assertTrue(decidedHere.get() > 0, counts + ": the replies were late");
      assertEquals(0, byPolicy.get(), counts + ": slow is not down");
      assertTrue(admitted.get() <= LIMIT * 105 / 100, counts + ": at most 1.05 x the limit");
      for (int i = 0; i < backends.size(); i++) {
        RedisBackend backend = backends.get(i);
        FailurePolicyStore instance = instances.get(i);
        awaitTrue(() -> backend.outstandingCommands() == 0
                && instance.lateReplies().outstanding("k") == 0,
            "every late call answered, and the ledger knows it");
      }
    } finally {
      for (RedisBackend backend : backends) {
        backend.close();
      }
    }
  }
}
