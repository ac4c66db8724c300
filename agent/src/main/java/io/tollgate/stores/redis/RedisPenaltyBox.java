package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.ExactMath;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A rule's penalty box on Redis, shared by every instance: {@code penalty-box.lua} runs {@link
 * PenaltyBox#check} and {@link PenaltyBox#record} on one hash per client key holding exactly
 * {@link PenaltyBox.State}, with Redis {@code TIME} as the clock, so that N instances box a key
 * after {@code maxRefusals} refusals in all, and all of them refuse it while it is boxed.
 *
 * <p>One {@code EVALSHA} per call. {@link #check} (before every decision of the rule) reads two hash
 * fields, and Redis's clock only for a key that has been boxed; {@link #record} is for refusals only.
 * Every write sets the hash to expire after {@link PenaltyBox#idleNanosUntilFresh()}.
 *
 * <p>Both throw {@link BackendUnavailableException} when Redis cannot answer; the caller decides
 * what a penalty is worth then. Lua bound, checked at construction: period and penalty are at most
 * 2^52 ns (about 52 days).
 */
public final class RedisPenaltyBox {

  private final RedisBackend backend;
  private final String ruleName;
  private final long penaltyNanos;
  /** Tests only: a clock whose reading is sent as "now" instead of Redis TIME. */
  private final Clock timeOverride;
  private final String[] argvTemplate;

  public RedisPenaltyBox(
      RedisBackend backend, String ruleName, int maxRefusals, long periodNanos, long penaltyNanos) {
    this(backend, ruleName, maxRefusals, periodNanos, penaltyNanos, null);
  }

  /** As above; with a non-null {@code timeOverride} (tests only) the script reads it, not TIME. */
  public RedisPenaltyBox(
      RedisBackend backend,
      String ruleName,
      int maxRefusals,
      long periodNanos,
      long penaltyNanos,
      Clock timeOverride) {
    checkFitsLua(ruleName, maxRefusals, periodNanos, penaltyNanos);
    this.backend = backend;
    this.ruleName = ruleName;
    this.penaltyNanos = penaltyNanos;
    this.timeOverride = timeOverride;
    long idle = new PenaltyBox(maxRefusals, periodNanos, penaltyNanos).idleNanosUntilFresh();
    long ttlMillis = Math.max(1, ExactMath.ceilDiv(idle, 1_000_000L));
    if (timeOverride != null) {
      // Test time and real time differ: keys must not expire in real time before test time says.
      ttlMillis = Math.max(ttlMillis, 3_600_000L);
    }
    this.argvTemplate =
        new String[] {
          "check",
          "",
          Integer.toString(maxRefusals),
          Long.toString(periodNanos),
          Long.toString(penaltyNanos),
          Long.toString(ttlMillis),
          "0"
        };
  }

  /**
   * Checks, without connecting, that the script can run this penalty exactly (and that it is a
   * valid penalty at all).
   *
   * @throws IllegalArgumentException naming the rule
   */
  public static void checkFitsLua(
      String ruleName, int maxRefusals, long periodNanos, long penaltyNanos) {
    try {
      new PenaltyBox(maxRefusals, periodNanos, penaltyNanos);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("rule '" + ruleName + "': " + e.getMessage(), e);
    }
    if (periodNanos > RedisAlgorithmStore.LUA_PERIOD_MAX
        || penaltyNanos > RedisAlgorithmStore.LUA_PERIOD_MAX) {
      throw RedisAlgorithmStore.tooLargeForLua(
          ruleName, "a penalty within or box-for of more than 2^52 ns (about 52 days)");
    }
  }

  /**
   * If the key is in the box: writes the refusal into {@code verdict} and returns true. Its
   * retry-after is the box's, or the limiter's that filled the box when that is longer, as {@link
   * PenaltyBox#check}'s.
   *
   * @throws BackendUnavailableException when Redis cannot answer
   */
  public boolean check(String key, Verdict verdict) {
    List<Object> reply = eval("check", key, 0);
    if (RedisAlgorithmStore.number(reply, 0, RedisScript.PENALTY_BOX) == 0) {
      return false;
    }
    long left = RedisAlgorithmStore.number(reply, 1, RedisScript.PENALTY_BOX);
    verdict.refuse(0, left, left);
    return true;
  }

  /**
   * Counts a refusal of the key (an allowed verdict is not sent); the one that fills the box
   * stretches {@code verdict} to it.
   *
   * @return true when this refusal filled the box (the key is boxed for the penalty from now)
   * @throws BackendUnavailableException when Redis cannot answer
   */
  public boolean record(String key, Verdict verdict) {
    if (verdict.allowed) {
      return false;
    }
    List<Object> reply =
        eval("record", key, Math.min(verdict.retryAfterNanos, RedisAlgorithmStore.LUA_PERIOD_MAX));
    if (RedisAlgorithmStore.number(reply, 0, RedisScript.PENALTY_BOX) != 1) {
      return false;
    }
    // As PenaltyBox.record: the refusal that fills the box already says the penalty.
    verdict.remaining = 0;
    verdict.retryAfterNanos = Math.max(verdict.retryAfterNanos, penaltyNanos);
    verdict.resetNanos = Math.max(verdict.resetNanos, penaltyNanos);
    verdict.nextUnitNanos = verdict.retryAfterNanos;
    return true;
  }

  /** How long a key stays in the box. */
  public long penaltyNanos() {
    return penaltyNanos;
  }

  public String ruleName() {
    return ruleName;
  }

  private List<Object> eval(String op, String key, long limiterWaitNanos) {
    String[] argv = argvTemplate.clone();
    argv[0] = op;
    argv[1] = timeOverride == null ? "" : Long.toString(timeOverride.nowNanos());
    argv[6] = Long.toString(Math.max(0, limiterWaitNanos));
    return backend.eval(RedisScript.PENALTY_BOX, RedisKeys.penaltyKey(ruleName, key), argv);
  }
}
