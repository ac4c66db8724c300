package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.SlidingWindow;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A {@code sliding-window} rule's keys on Redis: {@code sliding-window.lua} runs {@link
 * SlidingWindow#decide} and {@link SlidingWindow#adjust} on a hash of the window's start and the
 * two counters, in the same time unit; the products Java multiplies through by the period are
 * divided exactly in the script instead (see its header).
 *
 * <p>Lua bounds, checked at construction: the period is at most 2^52 time units (in nanoseconds,
 * about 52 days) and the limit at most 2^52.
 */
public final class RedisSlidingWindowStore extends RedisAlgorithmStore {

  private final SlidingWindow window;
  private final long unitNanos;
  private final long periodNanos;
  private final String[] argvTemplate;

  public RedisSlidingWindowStore(RedisBackend backend, String ruleName, SlidingWindow window) {
    this(backend, ruleName, window, null);
  }

  RedisSlidingWindowStore(
      RedisBackend backend, String ruleName, SlidingWindow window, Clock timeOverride) {
    super(backend, ruleName, "sliding-window", timeOverride);
    this.window = window;
    LimitSpec spec = window.spec();
    this.unitNanos = window.unitNanos();
    this.periodNanos = spec.periodNanos();
    long periodUnits = periodNanos / unitNanos;
    if (periodUnits > LUA_PERIOD_MAX || spec.limit() > LUA_PERIOD_MAX) {
      throw tooLargeForLua(
          ruleName,
          "a sliding window of " + spec.limit() + " per " + periodNanos + "ns (at most 2^52 time"
              + " units: about 52 days in nanoseconds)");
    }
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(spec.limit()),
          Long.toString(periodUnits),
          Long.toString(unitNanos),
          Long.toString(ttlMillis(window.idleNanosUntilFresh()))
        };
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    decideOnRedis(RedisScript.SLIDING_WINDOW, key, cost, verdict);
  }

  @Override
  boolean decidesInGroups() {
    return true;
  }

  @Override
  RedisScript script() {
    return RedisScript.SLIDING_WINDOW;
  }

  @Override
  String[] decideArgv(long cost) {
    return argv(argvTemplate, DECIDE, cost);
  }

  @Override
  void applyDecision(List<Object> reply, Verdict verdict) {
    long allowed = number(reply, 0, RedisScript.SLIDING_WINDOW);
    long remaining = number(reply, 1, RedisScript.SLIDING_WINDOW);
    long retryUnits = number(reply, 2, RedisScript.SLIDING_WINDOW);
    long resetUnits = number(reply, 3, RedisScript.SLIDING_WINDOW);
    // (now + units) * unitNanos - nowNanos, with subNanos = nowNanos - now * unitNanos.
    long subNanos = number(reply, 4, RedisScript.SLIDING_WINDOW);
    long resetNanos = resetUnits == 0 ? 0 : resetUnits * unitNanos - subNanos;
    if (allowed == 1) {
      long nextUnitUnits = number(reply, 5, RedisScript.SLIDING_WINDOW);
      verdict.allow(
          remaining, resetNanos, nextUnitUnits < 0 ? 0 : nextUnitUnits * unitNanos - subNanos);
    } else {
      verdict.refuse(
          remaining,
          retryUnits < 0 ? periodNanos : retryUnits * unitNanos - subNanos,
          resetNanos);
    }
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(RedisScript.SLIDING_WINDOW, argvTemplate, key, delta);
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return window;
  }

  LimitSpec spec() {
    return window.spec();
  }

  @Override
  long budget() {
    return spec().limit();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return new SlidingWindow(spec);
  }
}
