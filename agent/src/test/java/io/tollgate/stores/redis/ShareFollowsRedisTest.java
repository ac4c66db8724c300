package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * While Redis is late, the local share admits no more than this instance's part of what Redis last
 * said was left of the whole budget ({@code remaining / instances}, less what it sent since), nor
 * more than its own count, so the requests decided by the share do not admit what the other
 * instances have already spent ({@link PartOfWhatIsLeft}). A limit of 30 on three
 * instances (a share of 10 each); some of it spent by another instance, two requests decided by
 * Redis here, then Redis frozen ({@code kill -STOP}): what the share still admits. Real Redis.
 */
@ExtendWith(RedisServerExtension.class)
class ShareFollowsRedisTest {

  private static final int LIMIT = 30;
  private static final int INSTANCES = 3;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @ParameterizedTest(name = "{0} spent elsewhere, {1} here: the share admits {2} once redis is late")
  @CsvSource({
    // spent by the other instances, decided by redis here, admitted by the share after
    "0,  2,  8",  // 28 left on redis, a third is 9: the share's own 8 left is less
    "20, 1,  3",  // 9 left, a third is 3 (the share alone said 9: 6 more than the budget had)
    "27, 2,  0",  // 2, then 1 left: less than one each
    "0,  15, 0",  // this instance took 15, more than its share of 10: none left of its own
    "10, 0,  10", // nothing heard from redis here: the share is whole (the bound: its share)
  })
  void theShareAdmitsNoMoreThanItsPartOfWhatRedisHasLeft(
      int elsewhere, int here, int admittedAfter, @PrivateRedis RedisServer server) {
    // Long waits while Redis answers (a busy host must not make a decision of the set-up late),
    // short ones once it is frozen: each decision then waits 50 ms, the first 200 ms.
    RedisConnectionSettings patient = RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofSeconds(5)).withMaxWait(Duration.ofSeconds(10));
    try (RedisBackend backend = RedisBackend.connect(patient)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      String rule = RedisTestSupport.uniqueRule("follow");
      FailurePolicyStore store = policyStore(backend, rule);
      FailurePolicyStore others = policyStore(backend, rule);
      Verdict verdict = new Verdict();
      for (int i = 0; i < elsewhere; i++) {
        assertEquals(DecisionSource.BACKEND, others.decideWithSource("k", 1, verdict));
      }
      for (int i = 0; i < here; i++) {
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
      }

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

  private static FailurePolicyStore policyStore(RedisBackend backend, String rule) {
    RedisAlgorithmStore redis =
        RedisAlgorithmStore.of(backend, rule, new TokenBucket(LimitSpec.of(LIMIT, HOUR)));
    return new FailurePolicyStore(redis, OnFailure.DENY, () -> INSTANCES, Clock.system(), 1_000);
  }
}
