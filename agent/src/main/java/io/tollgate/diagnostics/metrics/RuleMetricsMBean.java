package io.tollgate.diagnostics.metrics;

/**
 * One rule's counters over JMX, as {@code io.tollgate:type=Rule,name=RULE}. Counts are since the
 * agent started and survive reloads that keep the rule's name.
 */
public interface RuleMetricsMBean {

  String getRule();

  /** Requests this rule let through. */
  long getAllowed();

  /** Requests this rule refused (in enforce mode). */
  long getRefused();

  /** Requests this rule would have refused in shadow mode (they passed). */
  long getWouldRefuse();

  /** Decisions the backend could not make (the rule's on-failure applied). */
  long getBackendErrors();

  /** Decisions this rule took part in. */
  long getDecisions();

  /** Total time of those decisions, in nanoseconds. */
  long getDecisionNanosTotal();

  /** The longest of those decisions, in nanoseconds. */
  long getDecisionNanosMax();

  /** The mean decision time, in nanoseconds (0 before the first decision). */
  long getDecisionNanosMean();

  /** The keys refused most often, heaviest first, as "key=count". */
  String[] getTopRefusedKeys();

  /**
   * adaptive-concurrency: the limit of requests in flight now (of the key whose limit moved last;
   * for {@code key: global}, the only one); -1 for other algorithms.
   */
  int getConcurrencyLimit();

  /** adaptive-concurrency: requests in flight now (same key); -1 for other algorithms. */
  int getInFlight();

  /**
   * adaptive-concurrency: the no-load latency (measured by its probes) the limit compares with, in milliseconds (0
   * before the first full window); -1 for other algorithms.
   */
  double getNoLoadLatencyMillis();

  /**
   * adaptive-concurrency: the mean latency of the last window, in milliseconds (0 before the
   * first full window); -1 for other algorithms.
   */
  double getRecentLatencyMillis();

  /**
   * Requests refused again before the {@code Retry-After} their key was last given had elapsed:
   * clients retrying in a loop.
   */
  long getEarlyRetries();

  /**
   * The keys that came back early most often, most first, as "key=count (told T s, came back
   * after t s)".
   */
  String[] getTopEarlyRetryKeys();

  // Leases (redis: lease-tokens): each -1 for a rule that does not lease tokens from Redis

  /** lease-tokens: the tokens one lease takes; -1 for a rule that does not lease. */
  long getLeaseTokens();

  /** Requests allowed from a lease's tokens held here, without a round trip of their own. */
  long getAllowedFromLease();

  /** Requests of a leasing rule decided by Redis in a call of their own. */
  long getDecidedByRedis();

  /** Leases Redis granted this instance. */
  long getLeases();

  /** Leases asked for ahead of need, in the background. */
  long getLeasesAhead();

  /** Requests that found no leased token while a lease was on its way, and waited for it. */
  long getWaitedForLease();

  /** Of those, the ones decided by the rule's local share: the lease was later than the timeout. */
  long getDecidedByShare();

  /** Tokens the leases brought here to hand out. */
  long getLeasedTokens();

  /** Leased tokens given up unused (their second ran out; not those of a key gone quiet). */
  long getLeasedTokensUnused();

  /** Leases that added nothing although Redis may have taken their tokens (failed, too late). */
  long getLeasesLost();
}
