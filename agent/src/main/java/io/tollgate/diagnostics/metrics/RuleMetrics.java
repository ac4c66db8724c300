package io.tollgate.diagnostics.metrics;

import io.tollgate.limiters.AdaptiveConcurrency;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;

/**
 * One rule's counters: cheap enough to bump on every decision. An allowed decision writes two
 * {@link LongAdder}s (its verdict's and the time) and only reads the maximum unless it is a new
 * one; the number of decisions is the sum of the verdicts' counters, each decision being one of
 * them, rather than a third adder written on every request.
 */
public final class RuleMetrics implements RuleMetricsMBean {

  static final int TOP_KEYS = 10;

  private final String rule;
  private final LongAdder allowed = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder wouldRefuse = new LongAdder();
  private final LongAdder backendErrors = new LongAdder();
  private final LongAdder decisionNanos = new LongAdder();
  private final AtomicLong decisionNanosMax = new AtomicLong();
  private final HeavyKeys refusedKeys = new HeavyKeys(TOP_KEYS);

  RuleMetrics(String rule) {
    this.rule = rule;
  }

  void allowed() {
    allowed.increment();
  }

  void refused(String key) {
    refused.increment();
    refusedKeys.add(key);
  }

  void wouldRefuse(String key) {
    wouldRefuse.increment();
    refusedKeys.add(key);
  }

  void backendError() {
    backendErrors.increment();
  }

  /** Counted beside exactly one of {@link #allowed}, {@link #refused} and {@link #wouldRefuse}. */
  void decisionTook(long nanos) {
    decisionTook(nanos, 1);
  }

  /**
   * A decision timed for {@code timedFor} of them (itself and those not timed since, see {@code
   * TollgateMetrics.record}): the sum grows by that many times its time, the maximum by it alone.
   */
  void decisionTook(long nanos, long timedFor) {
    decisionNanos.add(nanos * timedFor);
    long max = decisionNanosMax.get();
    while (nanos > max && !decisionNanosMax.compareAndSet(max, nanos)) {
      max = decisionNanosMax.get();
    }
  }

  @Override
  public String getRule() {
    return rule;
  }

  @Override
  public long getAllowed() {
    return allowed.sum();
  }

  @Override
  public long getRefused() {
    return refused.sum();
  }

  @Override
  public long getWouldRefuse() {
    return wouldRefuse.sum();
  }

  @Override
  public long getBackendErrors() {
    return backendErrors.sum();
  }

  @Override
  public long getDecisions() {
    return allowed.sum() + refused.sum() + wouldRefuse.sum();
  }

  @Override
  public long getDecisionNanosTotal() {
    return decisionNanos.sum();
  }

  @Override
  public long getDecisionNanosMax() {
    return decisionNanosMax.get();
  }

  @Override
  public long getDecisionNanosMean() {
    long n = getDecisions();
    return n == 0 ? 0 : decisionNanos.sum() / n;
  }

  @Override
  public String[] getTopRefusedKeys() {
    List<HeavyKeys.Entry> top = refusedKeys.top();
    String[] out = new String[top.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = top.get(i).toString();
    }
    return out;
  }

  @Override
  public int getConcurrencyLimit() {
    AdaptiveConcurrency.State s = TollgateMetrics.adaptiveState(rule);
    return s == null ? -1 : s.limit();
  }

  @Override
  public int getInFlight() {
    AdaptiveConcurrency.State s = TollgateMetrics.adaptiveState(rule);
    return s == null ? -1 : s.inFlight();
  }

  @Override
  public double getNoLoadLatencyMillis() {
    AdaptiveConcurrency.State s = TollgateMetrics.adaptiveState(rule);
    return s == null ? -1 : s.noLoadLatencyNanos() / 1e6;
  }

  @Override
  public double getRecentLatencyMillis() {
    AdaptiveConcurrency.State s = TollgateMetrics.adaptiveState(rule);
    return s == null ? -1 : s.recentLatencyNanos() / 1e6;
  }

  /** The refused (and would-refuse) keys, heaviest first. */
  public List<HeavyKeys.Entry> topRefusedKeys() {
    return refusedKeys.top();
  }

  // Early retries: requests refused again before the Retry-After they were given had elapsed

  private final LongAdder earlyRetries = new LongAdder();
  private final EarlyRetryKeys earlyRetryKeys = new EarlyRetryKeys();

  /**
   * {@code key} (shown as {@code shown} makes it) came back {@code afterNanos} after being told
   * {@code toldSeconds}.
   */
  void earlyRetry(String key, UnaryOperator<String> shown, long toldSeconds, long afterNanos) {
    earlyRetries.increment();
    earlyRetryKeys.add(key, shown, toldSeconds, afterNanos);
  }

  /** Requests of this rule refused again before the Retry-After their key was last given. */
  public long earlyRetries() {
    return earlyRetries.sum();
  }

  /** The {@code n} keys (at most {@link #TOP_KEYS}) that came back early most often, most first. */
  public List<EarlyRetryKey> topEarlyRetryKeys(int n) {
    return earlyRetryKeys.top(Math.min(n, TOP_KEYS));
  }

  @Override
  public long getEarlyRetries() {
    return earlyRetries();
  }

  @Override
  public String[] getTopEarlyRetryKeys() {
    List<EarlyRetryKey> top = topEarlyRetryKeys(TOP_KEYS);
    String[] out = new String[top.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = top.get(i).toString();
    }
    return out;
  }

  // Leases: read from the rule's store when asked (TollgateMetrics.showLeases), -1 without them

  private long leases(ToLongFunction<LeaseCounts> reader) {
    LeaseCounts leases = TollgateMetrics.leases(rule);
    return leases == null ? -1 : reader.applyAsLong(leases);
  }

  @Override
  public long getLeaseTokens() {
    return leases(LeaseCounts::leaseTokens);
  }

  @Override
  public long getAllowedFromLease() {
    return leases(LeaseCounts::allowedFromLease);
  }

  @Override
  public long getDecidedByRedis() {
    return leases(LeaseCounts::decidedByRedis);
  }

  @Override
  public long getLeases() {
    return leases(LeaseCounts::leases);
  }

  @Override
  public long getLeasesAhead() {
    return leases(LeaseCounts::leasesAhead);
  }

  @Override
  public long getWaitedForLease() {
    return leases(LeaseCounts::waitedForLease);
  }

  @Override
  public long getDecidedByShare() {
    return leases(LeaseCounts::decidedByShare);
  }

  @Override
  public long getLeasedTokens() {
    return leases(LeaseCounts::tokensLeased);
  }

  @Override
  public long getLeasedTokensUnused() {
    return leases(LeaseCounts::tokensUnused);
  }

  @Override
  public long getLeasesLost() {
    return leases(LeaseCounts::leasesLost);
  }
}
