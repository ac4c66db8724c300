package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Decisions that request threads send at once share one connection, their commands pipelined,
 * and each still gets its own reply: every key admits exactly its limit, however many threads ask
 * at once and however many keys they ask for.
 */
@ExtendWith(RedisServerExtension.class)
class ConcurrentDecisionsOnRedisTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  @ParameterizedTest(name = "{0} threads, {1} keys, limit {2}, {3} decisions each")
  @CsvSource({
    // threads | keys | limit per key | decisions per thread
    "1,  1,  50, 100",
    "16, 1,  300, 40",
    "16, 7,  30,  40",
    "32, 50, 5,   20",
  })
  void everyDecisionGetsItsOwnKeysAnswer(
      int threads, int keys, long limit, int perThread, RedisServer server) throws Exception {
    try (RedisBackend backend = RedisTestSupport.connect(server, Duration.ofSeconds(30))) {
      RedisGcraStore store =
          new RedisGcraStore(backend, RedisTestSupport.uniqueRule("together"),
              new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      try {
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int first = t;
          results.add(pool.submit(() -> {
            long[] allowedByKey = new long[keys];
            start.await();
            for (int i = 0; i < perThread; i++) {
              int key = (first + i) % keys;
              Verdict verdict = new Verdict();
              store.decide("client-" + key, 1, verdict);
              if (verdict.allowed) {
                allowedByKey[key]++;
              }
            }
            return allowedByKey;
          }));
        }
        start.countDown();
        long[] allowed = new long[keys];
        for (Future<long[]> result : results) {
          long[] byKey = result.get(2, TimeUnit.MINUTES);
          for (int k = 0; k < keys; k++) {
            allowed[k] += byKey[k];
          }
        }
        long[] asked = new long[keys];
        for (int t = 0; t < threads; t++) {
          for (int i = 0; i < perThread; i++) {
            asked[(t + i) % keys]++;
          }
        }
        for (int k = 0; k < keys; k++) {
          assertEquals(Math.min(limit, asked[k]), allowed[k], "key client-" + k);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
