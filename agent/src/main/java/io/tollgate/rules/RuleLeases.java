package io.tollgate.rules;

import io.tollgate.diagnostics.metrics.LeaseCounts;
import io.tollgate.stores.redis.LeaseCounters;

/**
 * A leasing rule's {@link LeaseCounters} (kept by the stores) as the metrics and {@code status}
 * read them: the diagnostics know no store, so the rules, which know both, hand them over.
 */
final class RuleLeases implements LeaseCounts {

  private final long leaseTokens;
  private final LeaseCounters counters;

  RuleLeases(long leaseTokens, LeaseCounters counters) {
    this.leaseTokens = leaseTokens;
    this.counters = counters;
  }

  @Override
  public long leaseTokens() {
    return leaseTokens;
  }

  @Override
  public long leases() {
    return counters.leases();
  }

  @Override
  public long leasesAhead() {
    return counters.leasesAhead();
  }

  @Override
  public long leasesLost() {
    return counters.leasesLost();
  }

  @Override
  public long tokensLeased() {
    return counters.tokensLeased();
  }

  @Override
  public long tokensUnused() {
    return counters.tokensUnused();
  }

  @Override
  public long allowedFromLease() {
    return counters.allowedFromLease();
  }

  @Override
  public long decidedByRedis() {
    return counters.decidedByRedis();
  }

  @Override
  public long waitedForLease() {
    return counters.waitedForLease();
  }

  @Override
  public long decidedByShare() {
    return counters.decidedByShare();
  }
}
