package io.tollgate.stores.redis;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * A token-bucket rule's keys on Redis: each decision is one {@code EVALSHA} of
 * {@code token-bucket.lua}, which runs {@link TokenBucket#decide} with the same state (a hash with
 * {@code tat} and {@code tatFraction}), the same units and the same integer arithmetic, on Redis
 * {@code TIME}. So a rule gives the same decisions on {@code backend: local} and {@code backend:
 * redis}, and every agent sharing the Redis shares the bucket.
 *
 * <p>Each write sets the key to expire after {@link TokenBucket#idleNanosUntilFresh()}, when the
 * bucket would be full again anyway. When Redis cannot answer, {@link #decide} throws {@link
 * BackendUnavailableException} within the timeout (at once while the breaker is open); wrap the
 * store in a {@link FailurePolicyStore} to apply the rule's {@code on-failure}.
 *
 * <p>Lua numbers are doubles. The script keeps every intermediate value below 2^53 (see its header);
 * the two bounds it needs are checked here, and a rule that could pass them is refused at
 * construction: {@code 2 * ceil(burst * periodUnits / limit) + burst + 1 + 3e9 <= 2^53} (time spans
 * in units: with nanosecond units, a bucket that takes at most ~52 days to refill) and {@code (burst +
 * 2) * limit <= 2^53}.
 *
 * <p>{@link #adjust} runs {@link TokenBucket#adjust} in the same script ({@code ARGV[1] =
 * adjust}): cost-header corrections count on Redis too.
 */
public final class RedisLimiterStore extends RedisAlgorithmStore {

  private final TokenBucket bucket;
  private final long unitNanos;
  private final long burst;
  private final long periodNanos;
  /** ARGV with the operation at 0, the time at 1 and the cost at 2. */
  private final String[] argvTemplate;

  public RedisLimiterStore(RedisBackend backend, String ruleName, TokenBucket bucket) {
    this(backend, ruleName, bucket, null);
  }

  RedisLimiterStore(RedisBackend backend, String ruleName, TokenBucket bucket, Clock timeOverride) {
    super(backend, ruleName, "token-bucket", timeOverride);
    this.bucket = bucket;
    LimitSpec spec = bucket.spec();
    long limit = spec.limit();
    this.burst = spec.burst();
    this.periodNanos = spec.periodNanos();
    this.unitNanos = bucket.unitNanos();
    // The same derivation as TokenBucket's constructor.
    long periodUnits = spec.periodNanos() / unitNanos;
    long intervalWhole = periodUnits / limit;
    long intervalRemainder = periodUnits % limit;
    long toleranceScaled = burst * periodUnits; // < 2^60, as TokenBucket guarantees
    long toleranceWhole = toleranceScaled / limit;
    long toleranceFraction = toleranceScaled % limit;
    checkLuaBounds(ruleName, spec, toleranceWhole);
    if (periodUnits > LUA_PERIOD_MAX || limit > LUA_PERIOD_MAX) {
      // What carrying a state over to new parameters (a reload) divides by.
      throw tooLargeForLua(ruleName, "a period of " + periodUnits + " time units or a limit of "
          + limit + " (at most 2^52 each)");
    }
    long ttlMillis = ttlMillis(bucket.idleNanosUntilFresh());
    this.argvTemplate =
        new String[] {
          DECIDE,
          "",
          "1",
          Long.toString(limit),
          Long.toString(burst),
          Long.toString(unitNanos),
          Long.toString(intervalWhole),
          Long.toString(intervalRemainder),
          Long.toString(toleranceWhole),
          Long.toString(toleranceFraction),
          Long.toString(ttlMillis),
          Long.toString(periodUnits),
          Long.toString(toleranceScaled / periodUnits + 1)
        };
  }

  static void checkLuaBounds(String ruleName, LimitSpec spec, long toleranceWhole) {
    long limit = spec.limit();
    long burst = spec.burst();
    boolean spanFits =
        toleranceWhole < (LUA_EXACT - burst - 3_000_000_002L) / 2 - 1;
    boolean fractionsFit = burst + 2 <= LUA_EXACT / limit;
    if (!spanFits || !fractionsFit) {
      throw new IllegalArgumentException(
          "rule '" + ruleName + "': limit " + limit + ", burst " + burst + " per "
              + spec.periodNanos() + "ns cannot be computed exactly on redis (Lua numbers are"
              + " exact only up to 2^53): "
              + (spanFits ? "limit * burst is too large" : "the bucket takes too long to refill")
              + "; use a smaller burst, a larger limit per period or backend: local");
    }
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    checkCost(cost);
    applyDecision(eval(RedisScript.TOKEN_BUCKET, key, decideArgv(cost)), verdict);
  }

  @Override
  boolean decidesInGroups() {
    return true;
  }

  @Override
  RedisScript script() {
    return RedisScript.TOKEN_BUCKET;
  }

  @Override
  String[] decideArgv(long cost) {
    return argv(argvTemplate, DECIDE, cost);
  }

  @Override
  void applyDecision(List<Object> reply, Verdict verdict) {
    long allowed = number(reply, 0);
    long remaining = number(reply, 1);
    long retryUnits = number(reply, 2);
    long resetUnits = number(reply, 3);
    if (allowed == 1) {
      verdict.allow(remaining, resetUnits * unitNanos, number(reply, 4) * unitNanos);
    } else if (retryUnits < 0) {
      verdict.refuse(remaining, periodNanos, resetUnits * unitNanos);
    } else {
      verdict.refuse(remaining, retryUnits * unitNanos, resetUnits * unitNanos);
    }
  }

  private static long number(List<Object> reply, int index) {
    return number(reply, index, RedisScript.TOKEN_BUCKET);
  }

  @Override
  public void adjust(String key, long delta) {
    adjustOnRedis(RedisScript.TOKEN_BUCKET, argvTemplate, key, delta);
  }

  public TokenBucket bucket() {
    return bucket;
  }

  @Override
  public RateLimitAlgorithm<?> algorithm() {
    return bucket;
  }

  LimitSpec spec() {
    return bucket.spec();
  }

  @Override
  RateLimitAlgorithm<?> dividedAmong(int instances) {
    LimitSpec spec = divided(spec(), instances);
    return new TokenBucket(spec);
  }

}
