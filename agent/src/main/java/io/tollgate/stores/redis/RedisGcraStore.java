package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Gcra;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A {@code token-bucket} or {@code gcra} rule's keys on Redis: each decision is one {@code EVALSHA}
 * of {@code gcra.lua}, which runs {@link Gcra#decide} (max-delay included: a delayed request's slot
 * is booked on Redis, and the caller waits) and {@link Gcra#adjust} with the same state (a hash with
 * {@code tat} and {@code tatFraction}), the same units and the same integer arithmetic, on Redis
 * {@code TIME}. So a rule gives the same decisions on {@code backend: local} and {@code backend:
 * redis}, and every agent sharing the Redis shares the bucket. A {@link TokenBucket} is a {@link
 * Gcra} without max-delay: the same script, with its own name in its keys ({@code token-bucket},
 * which they have always had: buckets written by earlier versions' {@code token-bucket.lua}, whose
 * state and parameters are the same, read on as they were).
 *
 * <p>Each write sets the key to expire after {@link Gcra#idleNanosUntilFresh()}, when the bucket
 * would be full again anyway. When Redis cannot answer, {@link #decide} throws {@link
 * BackendUnavailableException} within the timeout (at once while the breaker is open); wrap the
 * store in a {@link FailurePolicyStore} to apply the rule's {@code on-failure}.
 *
 * <p>Lua numbers are doubles. The script keeps every intermediate value below 2^53 (see its
 * header); the two bounds it needs are checked here, and a rule that could pass them is refused at
 * construction: {@code 2 * (toleranceWhole + maxDelayUnits) + maxCost + 3e9 + 3 < 2^53} (time spans
 * in units: with nanosecond units, burst tolerance plus max-delay under ~52 days) and {@code
 * (maxCost + 2) * limit <= 2^53}.
 */
public final class RedisGcraStore extends RedisAlgorithmStore {

  private final Gcra gcra;
  private final long unitNanos;
  private final long periodNanos;
  /** ARGV with the operation at 0, the time at 1 and the cost at 2. */
  private final String[] argvTemplate;

  public RedisGcraStore(RedisBackend backend, String ruleName, Gcra gcra) {
    this(backend, ruleName, gcra, null);
  }

  RedisGcraStore(RedisBackend backend, String ruleName, Gcra gcra, Clock timeOverride) {
    super(backend, ruleName, gcra.kind().yamlName(), timeOverride);
    this.gcra = gcra;
    LimitSpec spec = gcra.spec();
    long limit = spec.limit();
    long burst = spec.burst();
    this.periodNanos = spec.periodNanos();
    this.unitNanos = gcra.unitNanos();
    // The same derivation as Gcra's constructor.
    long periodUnits = periodNanos / unitNanos;
    long toleranceScaled = burst * periodUnits;
    long maxDelayUnits = gcra.maxDelayNanos() / unitNanos;
    long maxCost = (toleranceScaled + maxDelayUnits * limit) / periodUnits;
    long toleranceWhole = toleranceScaled / limit;
    boolean spanFits =
        toleranceWhole + maxDelayUnits < (LUA_EXACT - maxCost - 3_000_000_002L) / 2 - 1;
    boolean fractionsFit = maxCost + 2 <= LUA_EXACT / limit;
    if (!spanFits || !fractionsFit) {
      throw tooLargeForLua(
          ruleName,
          "limit " + limit + ", burst " + burst + " per " + periodNanos + "ns"
              + (gcra instanceof TokenBucket ? "" : " with max-delay " + gcra.maxDelayNanos() + "ns")
              + " (" + (spanFits ? "limit * burst is too large" : "the burst and delay span too long")
              + ")");
    }
    if (periodUnits > LUA_PERIOD_MAX || limit > LUA_PERIOD_MAX) {
      // What carrying a state over to new parameters (a reload) divides by.
      throw tooLargeForLua(ruleName, "a period of " + periodUnits + " time units or a limit of "
          + limit + " (at most 2^52 each)");
    }
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(limit),
          Long.toString(burst),
          Long.toString(unitNanos),
          Long.toString(periodUnits / limit),
          Long.toString(periodUnits % limit),
          Long.toString(toleranceWhole),
          Long.toString(toleranceScaled % limit),
          Long.toString(maxDelayUnits),
          Long.toString(maxCost),
          Long.toString(ttlMillis(gcra.idleNanosUntilFresh())),
          Long.toString(periodUnits),
          Long.toString((toleranceScaled + maxDelayUnits * limit) / periodUnits + 1),
          callerId(),
          // The state's parameters (the hash's field p), made here once rather than by the script
          // on every call.
          unitNanos + ":" + periodUnits + ":" + limit + ":" + (toleranceWhole + maxDelayUnits)
              + ":" + (toleranceScaled % limit)
        };
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    decideOnRedis(RedisScript.GCRA, key, cost, verdict);
  }

  @Override
  boolean decidesInGroups() {
    return true;
  }

  @Override
  RedisScript script() {
    return RedisScript.GCRA;
  }

  @Override
  String[] decideArgv(long cost) {
    return argv(argvTemplate, DECIDE, cost);
  }

  @Override
  void applyDecision(List<Object> reply, Verdict verdict) {
    long allowed = number(reply, 0, RedisScript.GCRA);
    long remaining = number(reply, 1, RedisScript.GCRA);
    long retryUnits = number(reply, 2, RedisScript.GCRA);
    long resetUnits = number(reply, 3, RedisScript.GCRA);
    long delayUnits = number(reply, 4, RedisScript.GCRA);
    if (allowed == 1) {
      long nextUnitUnits = number(reply, 5, RedisScript.GCRA);
      verdict.allow(remaining, resetUnits * unitNanos, nextUnitUnits * unitNanos);
      verdict.delayNanos = delayUnits * unitNanos;
    } else if (retryUnits < 0) {
      verdict.refuse(remaining, periodNanos, resetUnits * unitNanos);
    } else {
      verdict.refuse(remaining, retryUnits * unitNanos, resetUnits * unitNanos);
    }
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(RedisScript.GCRA, argvTemplate, key, delta);
  }

  /**
   * A refund moves the bucket's {@code tat} back by the cost's intervals, never before now, and
   * does nothing to a key that expired: one grant undone, as far as it still counts. One for the
   * other instances only is kept beside the bucket as this caller's gift, which a decision of
   * another caller that the bucket refuses takes, as that same move made then ({@code gcra.lua}).
   */
  @Override
  boolean refundsGrants() {
    return true;
  }

  @Override
  boolean refundInBackground(String key, long cost, boolean othersOnly) {
    if (othersOnly && !callerId().isEmpty()) {
      return cost <= 0 || sendInBackground(RedisScript.GCRA, key, argv(argvTemplate, REFUND, cost));
    }
    return adjustInBackground(RedisScript.GCRA, argvTemplate, key, -cost);
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return gcra;
  }

  LimitSpec spec() {
    return gcra.spec();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return gcra.withSpec(spec);
  }

  @Override
  long budget() {
    return spec().burst();
  }
}
