package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Atomicity on a real Redis: the last token goes to exactly one caller, and many callers on many
 * threads get exactly the limit, also while the script cache is flushed under them. Periods are
 * ten days long so that refill during a test (a token per ~30 minutes at most) cannot add one.
 */
@ExtendWith(RedisServerExtension.class)
class RedisConcurrencyTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  private static RedisBackend backend;
  private static ExecutorService pool;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
    pool = Executors.newFixedThreadPool(16);
  }

  @AfterAll
  static void close() {
    pool.shutdownNow();
    backend.close();
  }

  @Test
  void oneTokenLeftThreeCallersExactlyOneAllowed() throws Exception {
    RedisGcraStore store =
        new RedisGcraStore(
            backend, RedisTestSupport.uniqueRule("last-token"),
            new TokenBucket(new LimitSpec(3, TEN_DAYS, 3)));
    Verdict verdict = new Verdict();
    for (int round = 0; round < 300; round++) {
      String key = "k" + round;
      store.decide(key, 1, verdict);
      assertTrue(verdict.allowed);
      store.decide(key, 1, verdict);
      assertTrue(verdict.allowed);
      assertEquals(1, verdict.remaining, "one token left");
      int allowed = allowedOfCallersAtOnce(store, key, 3);
      assertEquals(1, allowed, "round " + round + ": exactly one of three gets the last token");
    }
  }

  /** One unit left (of 3, per ten days) and eight callers at once: exactly one is allowed. */
  @ParameterizedTest
  @EnumSource(value = AlgorithmKind.class, mode = EnumSource.Mode.EXCLUDE,
      names = "ADAPTIVE_CONCURRENCY") // local by nature: refused with backend: redis
  void lastUnitGoesToExactlyOneOfEightCallersWhateverTheAlgorithm(AlgorithmKind kind)
      throws Exception {
    RedisAlgorithmStore store =
        RedisAlgorithmStore.of(
            backend,
            RedisTestSupport.uniqueRule("last-" + kind.yamlName()),
            Algorithms.create(kind, new LimitSpec(3, TEN_DAYS, 3)));
    Verdict verdict = new Verdict();
    for (int round = 0; round < 40; round++) {
      String key = "k" + round;
      store.decide(key, 2, verdict);
      assertTrue(verdict.allowed, verdict.toString());
      assertEquals(1, verdict.remaining, "one unit left");
      int allowed = allowedOfCallersAtOnce(store, key, 8);
      assertEquals(1, allowed, kind + " round " + round + ": exactly one of eight gets the last unit");
    }
  }

  @Test
  void manyCallersGetExactlyTheLimit() throws Exception {
    long limit = 500;
    RedisGcraStore store =
        new RedisGcraStore(
            backend, RedisTestSupport.uniqueRule("many"),
            new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
    assertEquals(limit, hammer(store, 16, 150, null));
  }

  @Test
  void scriptFlushDuringTrafficFailsNoDecision(RedisServer server) throws Exception {
    long limit = 1000;
    RedisGcraStore store =
        new RedisGcraStore(
            backend, RedisTestSupport.uniqueRule("flush"),
            new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger flushes = new AtomicInteger();
    Thread flusher =
        new Thread(
            () -> {
              while (!done.get()) {
                server.call("SCRIPT", "FLUSH");
                flushes.incrementAndGet();
                try {
                  Thread.sleep(2);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    flusher.start();
    long allowed;
    try {
      allowed = hammer(store, 8, 300, flushes);
    } finally {
      done.set(true);
      flusher.join(10_000);
    }
    assertEquals(limit, allowed, "no double counting across reloads");
    assertTrue(flushes.get() > 10, "the cache was flushed during the traffic: " + flushes.get());
  }

  /**
   * Runs {@code threads * perThread} decisions on one key; returns how many were allowed. Any
   * failed decision fails the test.
   */
  private static long hammer(
      RedisGcraStore store, int threads, int perThread, AtomicInteger waitForFlushes)
      throws Exception {
    AtomicLong allowed = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      workers.add(
          pool.submit(
              () -> {
                Verdict own = new Verdict();
                start.await(10, TimeUnit.SECONDS);
                for (int i = 0; i < perThread; i++) {
                  store.decide("shared", 1, own);
                  if (own.allowed) {
                    allowed.incrementAndGet();
                  }
                  if (waitForFlushes != null && i % 50 == 0) {
                    Thread.sleep(1);
                  }
                }
                return null;
              }));
    }
    for (Future<?> worker : workers) {
      worker.get(120, TimeUnit.SECONDS); // a failed decision surfaces here
    }
    return allowed.get();
  }

  /** {@code callers} threads decide one unit of {@code key} at the same moment; how many got it. */
  private int allowedOfCallersAtOnce(LimiterStore store, String key, int callers)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(callers);
    List<Future<Boolean>> outcomes = new ArrayList<>();
    for (int c = 0; c < callers; c++) {
      outcomes.add(
          pool.submit(
              () -> {
                Verdict own = new Verdict();
                start.await(10, TimeUnit.SECONDS);
                store.decide(key, 1, own);
                return own.allowed;
              }));
    }
    int allowed = 0;
    for (Future<Boolean> outcome : outcomes) {
      if (outcome.get(30, TimeUnit.SECONDS)) {
        allowed++;
      }
    }
    return allowed;
  }
}
