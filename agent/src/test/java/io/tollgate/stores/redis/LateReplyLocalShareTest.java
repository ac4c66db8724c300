package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A reply later than the hard bound (however late: a hung connection too), lost with its
 * connection, not waited for (the bulkhead full), or on a backend a reload retired: decided by
 * the rule's local share, under every policy, and that share already holds what Redis allowed, so
 * a saturated host admits no fresh burst. (The store in front of Redis is scripted here: what
 * matters is what the policy store does with each kind of failure; the real backend's kinds are
 * covered by RedisUnderLoadTest and RedisFailureKindTest.)
 */
class LateReplyLocalShareTest {

  /** Allows like a fresh Redis bucket of {@code limit}, then fails with {@code failure}. */
  private static final class ScriptedRedis implements LimiterStore {
    long allowedLeft;
    RedisFailure failure;

    @Override
    public void decide(String key, long cost, Verdict verdict) {
      if (failure != null) {
        throw new BackendUnavailableException("scripted", null, 0, failure);
      }
      if (allowedLeft > 0) {
        allowedLeft--;
        verdict.allow(allowedLeft, 0);
      } else {
        verdict.refuse(0, TimeUnit.SECONDS.toNanos(1), 0);
      }
    }

    @Override
    public long estimatedKeys() {
      return 0;
    }
  }

  @ParameterizedTest
  @EnumSource(OnFailure.class)
  void aLateOrLostReplyIsDecidedByTheLocalShareThatFollowedRedis(OnFailure policy) {
    for (RedisFailure kind : new RedisFailure[] {RedisFailure.SLOW, RedisFailure.LOST,
        RedisFailure.HUNG, RedisFailure.BUSY, RedisFailure.CLOSED}) {
      TokenBucket bucket = new TokenBucket(LimitSpec.of(10, TimeUnit.DAYS.toNanos(10)));
      RedisGcraStore primary = new RedisGcraStore(null, "late", bucket);
      ScriptedRedis redis = new ScriptedRedis();
      redis.allowedLeft = 10;
      FailurePolicyStore store =
          new FailurePolicyStore(primary, redis, policy, () -> 1, Clock.system(), 100);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 10; i++) {
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
        assertTrue(verdict.allowed);
      }
      redis.failure = kind;
      assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("k", 1, verdict), kind
          + " under " + policy);
      assertFalse(verdict.allowed, "the share holds what redis allowed: no fresh burst");
      assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("other", 1, verdict));
      assertTrue(verdict.allowed, "a key redis never saw has its share");
    }
  }

  /**
   * A refusal from Redis says the shared budget is spent: the instance's share is emptied with it,
   * though this instance had taken only 3 of its 10 (the other instances took Redis's tokens).
   */
  @ParameterizedTest
  @EnumSource(OnFailure.class)
  void aRefusalFromRedisEmptiesTheShare(OnFailure policy) {
    TokenBucket bucket = new TokenBucket(LimitSpec.of(10, TimeUnit.DAYS.toNanos(10)));
    ScriptedRedis redis = new ScriptedRedis();
    redis.allowedLeft = 2;
    FailurePolicyStore store = new FailurePolicyStore(
        new RedisGcraStore(null, "spent", bucket), redis, policy, () -> 1, Clock.system(), 100);
    Verdict verdict = new Verdict();
    store.decideWithSource("k", 1, verdict);
    store.decideWithSource("k", 1, verdict);
    assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, verdict));
    assertFalse(verdict.allowed, "redis refused: its budget is spent");
    redis.failure = RedisFailure.SLOW;
    assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("k", 1, verdict));
    assertFalse(verdict.allowed, "the share went with it: not 7 more on top of the limit");
  }

  @ParameterizedTest
  @EnumSource(value = RedisFailure.class, names = {"UNREACHABLE", "SERVER_ERROR", "RULE_ERROR"})
  void anOutageIsDecidedByThePolicy(RedisFailure kind) {
    TokenBucket bucket = new TokenBucket(LimitSpec.of(10, TimeUnit.DAYS.toNanos(10)));
    ScriptedRedis redis = new ScriptedRedis();
    redis.failure = kind;
    FailurePolicyStore allow =
        new FailurePolicyStore(new RedisGcraStore(null, "outage", bucket), redis,
            OnFailure.ALLOW, () -> 1, Clock.system(), 100);
    FailurePolicyStore deny =
        new FailurePolicyStore(new RedisGcraStore(null, "outage", bucket), redis,
            OnFailure.DENY, () -> 1, Clock.system(), 100);
    Verdict verdict = new Verdict();
    assertEquals(DecisionSource.FAIL_OPEN, allow.decideWithSource("k", 1, verdict));
    assertEquals(DecisionSource.FAIL_CLOSED, deny.decideWithSource("k", 1, verdict));
  }
}
