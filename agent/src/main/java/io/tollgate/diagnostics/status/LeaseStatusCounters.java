package io.tollgate.diagnostics.status;

import io.tollgate.diagnostics.metrics.LeaseCounts;
import java.util.List;
import java.util.Map;

/**
 * What {@code status} shows of a rule's token leases ({@code redis: lease-tokens}), when it has
 * them: each counter a per-second column of the text's lease table and a total and a rate in the
 * JSON, in this order. Read together: requests allowed from a lease against those Redis decided
 * (is leasing working), requests that waited for a lease and those the local share decided when it
 * was late (over-admission beyond the tokens held), tokens given up unused and leases lost
 * (under-use).
 */
public final class LeaseStatusCounters {

  /** The counters, in the order of the lease table's columns. */
  public static final List<StatusCounter<LeaseCounts>> COUNTERS = List.of(
      new StatusCounter<>("allowedFromLease", "FROM-LEASE/S", LeaseCounts::allowedFromLease),
      new StatusCounter<>("decidedByRedis", "BY-REDIS/S", LeaseCounts::decidedByRedis),
      new StatusCounter<>("leases", "LEASES/S", LeaseCounts::leases),
      new StatusCounter<>("leasesAhead", "AHEAD/S", LeaseCounts::leasesAhead),
      new StatusCounter<>("waitedForLease", "WAITED/S", LeaseCounts::waitedForLease),
      new StatusCounter<>("decidedByShare", "BY-SHARE/S", LeaseCounts::decidedByShare),
      new StatusCounter<>("tokensLeased", "TOKENS/S", LeaseCounts::tokensLeased),
      new StatusCounter<>("tokensUnused", "UNUSED/S", LeaseCounts::tokensUnused),
      new StatusCounter<>("leasesLost", "LOST/S", LeaseCounts::leasesLost));

  /** What the table's heading says the columns are. */
  static final String HEADING = "leases (lease-tokens): requests allowed FROM a LEASE or decided"
      + " BY REDIS; LEASES granted, taken AHEAD; requests that WAITED for one, decided BY the local"
      + " SHARE when it was late; TOKENS leased, given up UNUSED; leases LOST";

  private LeaseStatusCounters() {}

  /** Every counter of {@code leases} by name; empty for a rule that does not lease (null). */
  public static Map<String, Long> read(LeaseCounts leases) {
    return leases == null ? Map.of() : StatusCounter.readAll(COUNTERS, leases);
  }
}
