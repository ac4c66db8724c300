package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.FixedWindow;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A {@code fixed-window} rule's keys on Redis: {@code fixed-window.lua} runs {@link
 * FixedWindow#decide} and {@link FixedWindow#adjust} on a hash of the window's start and count,
 * the windows aligned on the Unix epoch by Redis {@code TIME}, as locally.
 *
 * <p>Lua bound, checked at construction: the period is at most 2^52 ns (about 52 days).
 */
public final class RedisFixedWindowStore extends RedisAlgorithmStore {

  private final FixedWindow window;
  private final long periodNanos;
  private final String[] argvTemplate;

  public RedisFixedWindowStore(RedisBackend backend, String ruleName, FixedWindow window) {
    this(backend, ruleName, window, null);
  }

  RedisFixedWindowStore(
      RedisBackend backend, String ruleName, FixedWindow window, Clock timeOverride) {
    super(backend, ruleName, timeOverride);
    this.window = window;
    LimitSpec spec = window.spec();
    this.periodNanos = spec.periodNanos();
    if (periodNanos > LUA_PERIOD_MAX || spec.limit() > LUA_PERIOD_MAX) {
      throw tooLargeForLua(
          ruleName, "a fixed window of " + periodNanos + "ns (at most 2^52 ns, about 52 days)");
    }
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(spec.limit()),
          Long.toString(periodNanos),
          Long.toString(ttlMillis(window.idleNanosUntilFresh()))
        };
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    checkCost(cost);
    List<Object> reply = eval(RedisScript.FIXED_WINDOW, key, argv(argvTemplate, DECIDE, cost));
    applyNanosReply(reply, RedisScript.FIXED_WINDOW, periodNanos, verdict);
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(RedisScript.FIXED_WINDOW, argvTemplate, key, delta);
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return window;
  }

  LimitSpec spec() {
    return window.spec();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return new FixedWindow(spec);
  }
}
