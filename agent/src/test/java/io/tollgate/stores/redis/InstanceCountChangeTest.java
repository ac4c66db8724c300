package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When the number of live instances changes (an instance joins, or one that stopped without
 * leaving drops out of the registry), each rule's local share is divided anew and every key keeps
 * the fraction of its share it had used. The share rebuilt full at each change once: in a
 * benchmark the instances of a previous run dropped out of the registry during a flood, every
 * instance got a fresh share of a budget Redis had spent, and the decisions Redis answered late
 * admitted 112 of 100. Redis is real; it is frozen ({@code kill -STOP}) after the change so that
 * the local share decides.
 */
@ExtendWith(RedisServerExtension.class)
class InstanceCountChangeTest {

  private static final int LIMIT = 30;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @ParameterizedTest(name = "{0} -> {1} instances, {2} taken here and {3} elsewhere: {4} admitted")
  @CsvSource({
    // instances before, after, taken here, taken by another instance, admitted by the share after
    "6, 3, 2, 28, 0",  // redis refused: the budget is spent, and the share doubled stays spent
    "6, 3, 2, 0,  6",  // 2 of a share of 5 used: 4 of 10
    "3, 6, 4, 0,  3",  // 4 of 10 used: 2 of 5
    "6, 3, 0, 0,  10", // a key not used: the new share whole
  })
  void aShareDividedAnewKeepsWhatItHadUsed(
      int before, int after, int here, int elsewhere, int admittedAfter,
      @PrivateRedis RedisServer server) {
    // Long waits while Redis answers (a busy host must not make a decision of the set-up late),
    // short ones once it is frozen: each decision then waits 50 ms, the first 200 ms.
    RedisConnectionSettings patient = RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofSeconds(5)).withMaxWait(Duration.ofSeconds(10));
    try (RedisBackend backend = RedisBackend.connect(patient)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      String rule = RedisTestSupport.uniqueRule("count");
      AtomicInteger instances = new AtomicInteger(before);
      FailurePolicyStore store = policyStore(backend, rule, instances::get);
      FailurePolicyStore otherInstance = policyStore(backend, rule, () -> before);
      Verdict verdict = new Verdict();
      for (int i = 0; i < elsewhere; i++) {
        assertEquals(DecisionSource.BACKEND, otherInstance.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
      }
      for (int i = 0; i < here; i++) {
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
      }
      if (here + elsewhere >= LIMIT) {
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
        assertFalse(verdict.allowed, "redis: the budget is spent");
      }

      instances.set(after);
      backend.retime(
          patient.withTimeout(Duration.ofMillis(50)).withMaxWait(Duration.ofMillis(200)));
      server.pause();
      int admitted = 0;
      try {
        for (int i = 0; i < LIMIT; i++) {
          assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("k", 1, verdict));
          admitted += verdict.allowed ? 1 : 0;
        }
      } finally {
        server.resume();
      }
      assertEquals(admittedAfter, admitted);
    }
  }

  private static FailurePolicyStore policyStore(
      RedisBackend backend, String rule, IntSupplier instances) {
    RedisAlgorithmStore redis =
        RedisAlgorithmStore.of(backend, rule, new TokenBucket(LimitSpec.of(LIMIT, HOUR)));
    return new FailurePolicyStore(redis, OnFailure.DENY, instances, Clock.system(), 1_000);
  }
}
