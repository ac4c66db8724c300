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
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Decisions that come while a reset connection is being made again wait for that reconnect, for
 * up to {@code max-wait} after that very drop, and are decided by Redis, not by {@code
 * on-failure}: also when the drop comes less than {@code max-wait} after the one before, and when
 * the reconnect takes longer than the decisions' {@code timeout}; a call per decision or batched.
 * Only a reconnect longer than {@code max-wait} leaves them to {@code on-failure}.
 *
 * <p>With the connection reset once a second under a flood ({@code run-redis-faults.sh}, round
 * {@code drop}, {@code on-failure: allow}, a limit of 100), every request admitted over the limit
 * was one of these decided by {@code allow} (5-113 a round, batched or not): a drop that came a
 * little less than {@code max-wait} after the one before kept the older drop's date, and the
 * decision that first saw a drop read its deadline before dating it (BENCHMARKS.md, section 7,
 * h-batch4). The reconnect is made slow by the proxy holding new connections ({@link
 * FaultyProxy#holdNewConnections}); the times are far apart, so a busy machine only lengthens it.
 */
@ExtendWith(RedisServerExtension.class)
class ConnectionResetTest {

  private static final int DECISIONS = 8;

  @ParameterizedTest(name = "batched {0}: drop {1} ms after the one before (0: the first), "
      + "reconnect {2} ms, max-wait {3} ms: {4} decided by redis, {5} by on-failure")
  @CsvSource({
      // batched, ms since the drop before (0: none), reconnect takes, max-wait, by redis, by allow
      "false, 0,    1000, 6000, 8, 0",
      "true,  0,    1000, 6000, 8, 0",
      "false, 2000, 4500, 6000, 8, 0",
      "true,  2000, 4500, 6000, 8, 0",
      // the bound: nobody waits past max-wait after the drop for a reconnect still under way
      "false, 0,    3000, 1000, 0, 8",
      "true,  0,    3000, 1000, 0, 8",
  })
  void decisionsAtADropWaitForItsReconnect(boolean batched, long sinceDropBefore,
      long reconnectMillis, long maxWaitMillis, int byRedis, int byOnFailure, RedisServer server)
      throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisTestSupport.connectThrough(
            proxy, Duration.ofMillis(maxWaitMillis), DECISIONS, batched)) {
      FailurePolicyStore store = new FailurePolicyStore(
          new RedisGcraStore(backend, RedisTestSupport.uniqueRule("reset"),
              new TokenBucket(LimitSpec.of(1_000_000, TimeUnit.DAYS.toNanos(10)))),
          OnFailure.ALLOW, () -> 1, Clock.system(), 1_000);
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, new Verdict()));

      if (sinceDropBefore > 0) {
        long droppedBefore = System.nanoTime();
        dropAndAwaitSeen(proxy, backend);
        awaitTrue(backend::isConnected, "reconnected at once after the drop before");
        long left = droppedBefore + TimeUnit.MILLISECONDS.toNanos(sinceDropBefore)
            - System.nanoTime();
        assertTrue(left > 0, "the reconnect after the first drop took longer than "
            + sinceDropBefore + " ms: the case is not made");
        TimeUnit.NANOSECONDS.sleep(left); // the time between the two drops, the case itself
      }
      proxy.holdNewConnections(reconnectMillis);
      dropAndAwaitSeen(proxy, backend);

      Map<DecisionSource, Integer> by = decideAtOnce(store);
      assertEquals(byRedis, by.getOrDefault(DecisionSource.BACKEND, 0), "by redis: " + by);
      assertEquals(byOnFailure, by.getOrDefault(DecisionSource.FAIL_OPEN, 0),
          "by on-failure: " + by);
    }
  }

  /** Resets the connection and waits until the backend knows it is down. */
  private static void dropAndAwaitSeen(FaultyProxy proxy, RedisBackend backend) {
    proxy.dropConnections();
    awaitTrue(() -> !backend.isConnected(), "the backend sees the drop");
  }

  /** {@link #DECISIONS} decisions of one key at once, counted by who decided them. */
  private static Map<DecisionSource, Integer> decideAtOnce(FailurePolicyStore store)
      throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(DECISIONS);
    Map<DecisionSource, Integer> by = new EnumMap<>(DecisionSource.class);
    try {
      List<Future<DecisionSource>> decisions = new ArrayList<>();
      for (int i = 0; i < DECISIONS; i++) {
        decisions.add(threads.submit(() -> store.decideWithSource("k", 1, new Verdict())));
      }
      for (Future<DecisionSource> decision : decisions) {
        by.merge(decision.get(2, TimeUnit.MINUTES), 1, Integer::sum);
      }
    } finally {
      threads.shutdownNow();
    }
    return by;
  }
}
