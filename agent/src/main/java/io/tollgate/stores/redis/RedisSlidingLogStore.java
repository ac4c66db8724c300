package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.SlidingLog;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A {@code sliding-log} rule's keys on Redis: {@code sliding-log.lua} runs {@link SlidingLog#decide}
 * and {@link SlidingLog#adjust} on a list of the allowed units' timestamps, oldest first, exactly
 * the local ring buffer (at most {@link SlidingLog#MAX_LIMIT} entries of ~20 bytes per key).
 *
 * <p>Lua bound, checked at construction: the period is at most 2^52 ns (about 52 days).
 */
public final class RedisSlidingLogStore extends RedisAlgorithmStore {

  private final SlidingLog log;
  private final long periodNanos;
  private final String[] argvTemplate;

  public RedisSlidingLogStore(RedisBackend backend, String ruleName, SlidingLog log) {
    this(backend, ruleName, log, null);
  }

  RedisSlidingLogStore(RedisBackend backend, String ruleName, SlidingLog log, Clock timeOverride) {
    super(backend, ruleName, timeOverride);
    this.log = log;
    LimitSpec spec = log.spec();
    this.periodNanos = spec.periodNanos();
    if (periodNanos > LUA_PERIOD_MAX) {
      throw tooLargeForLua(
          ruleName, "a sliding log of " + periodNanos + "ns (at most 2^52 ns, about 52 days)");
    }
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(spec.limit()),
          Long.toString(periodNanos),
          Long.toString(ttlMillis(log.idleNanosUntilFresh()))
        };
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    checkCost(cost);
    List<Object> reply = eval(RedisScript.SLIDING_LOG, key, argv(argvTemplate, DECIDE, cost));
    applyNanosReply(reply, RedisScript.SLIDING_LOG, periodNanos, verdict);
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(RedisScript.SLIDING_LOG, argvTemplate, key, delta);
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return log;
  }

  LimitSpec spec() {
    return log.spec();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return new SlidingLog(spec);
  }
}
