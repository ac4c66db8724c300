package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.FixedWindow;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.SlidingLog;
import io.tollgate.limiters.Verdict;
import java.util.List;
import java.util.function.Function;

/**
 * A {@code fixed-window} or {@code sliding-log} rule's keys on Redis. The two differ only in their
 * script: both send the limit, the period and the keys' time to live, and both answer {allowed,
 * remaining, retry-after, reset} in nanoseconds.
 *
 * <ul>
 *   <li>{@code fixed-window.lua} runs {@link FixedWindow#decide} and {@link FixedWindow#adjust} on
 *       a hash of the window's start and count, the windows aligned on the Unix epoch by Redis
 *       {@code TIME}, as locally.
 *   <li>{@code sliding-log.lua} runs {@link SlidingLog#decide} and {@link SlidingLog#adjust} on a
 *       list of the allowed units' timestamps, oldest first, exactly the local ring buffer (at
 *       most {@link SlidingLog#MAX_LIMIT} entries of ~20 bytes per key).
 * </ul>
 *
 * <p>Lua bound, checked at construction: the period is at most 2^52 ns (about 52 days), and so is
 * a fixed window's limit.
 */
final class RedisPeriodCountStore extends RedisAlgorithmStore {

  private final RedisScript script;
  private final RateLimitAlgorithm<?> algorithm;
  private final LimitSpec spec;
  /** The same algorithm with another limit: the {@code on-failure: local} share. */
  private final Function<LimitSpec, RateLimitAlgorithm<?>> withSpec;
  private final String[] argvTemplate;

  static RedisPeriodCountStore fixedWindow(
      RedisBackend backend, String ruleName, FixedWindow window, Clock timeOverride) {
    LimitSpec spec = window.spec();
    if (spec.periodNanos() > LUA_PERIOD_MAX || spec.limit() > LUA_PERIOD_MAX) {
      throw tooLargeForLua(ruleName,
          "a fixed window of " + spec.periodNanos() + "ns (at most 2^52 ns, about 52 days)");
    }
    return new RedisPeriodCountStore(
        backend, ruleName, "fixed-window", timeOverride, RedisScript.FIXED_WINDOW, window, spec,
        FixedWindow::new);
  }

  static RedisPeriodCountStore slidingLog(
      RedisBackend backend, String ruleName, SlidingLog log, Clock timeOverride) {
    LimitSpec spec = log.spec();
    if (spec.periodNanos() > LUA_PERIOD_MAX) {
      throw tooLargeForLua(ruleName,
          "a sliding log of " + spec.periodNanos() + "ns (at most 2^52 ns, about 52 days)");
    }
    return new RedisPeriodCountStore(
        backend, ruleName, "sliding-log", timeOverride, RedisScript.SLIDING_LOG, log, spec,
        SlidingLog::new);
  }

  private RedisPeriodCountStore(
      RedisBackend backend,
      String ruleName,
      String algorithmName,
      Clock timeOverride,
      RedisScript script,
      RateLimitAlgorithm<?> algorithm,
      LimitSpec spec,
      Function<LimitSpec, RateLimitAlgorithm<?>> withSpec) {
    super(backend, ruleName, algorithmName, timeOverride);
    this.script = script;
    this.algorithm = algorithm;
    this.spec = spec;
    this.withSpec = withSpec;
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(spec.limit()),
          Long.toString(spec.periodNanos()),
          Long.toString(ttlMillis(algorithm.idleNanosUntilFresh()))
        };
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    decideOnRedis(script, key, cost, verdict);
  }

  @Override
  boolean decidesInGroups() {
    return true;
  }

  @Override
  RedisScript script() {
    return script;
  }

  @Override
  String[] decideArgv(long cost) {
    return argv(argvTemplate, DECIDE, cost);
  }

  @Override
  void applyDecision(List<Object> reply, Verdict verdict) {
    applyNanosReply(reply, script, spec.periodNanos(), verdict);
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(script, argvTemplate, key, delta);
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return algorithm;
  }

  @Override
  long budget() {
    return spec.limit();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    return withSpec.apply(divided(spec, instances));
  }
}
