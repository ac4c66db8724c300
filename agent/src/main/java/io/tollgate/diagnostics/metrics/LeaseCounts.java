package io.tollgate.diagnostics.metrics;

/**
 * What a rule's token leases ({@code redis: lease-tokens: N}) did in this instance since the agent
 * started, read when {@code status}, JMX or Prometheus asks: the figures that say whether leasing
 * works (requests allowed from a lease against those Redis decided, leases taken ahead against
 * requests that waited) and whether it over- or under-admits (requests the local share decided
 * while a lease was late; tokens given up unused, leases lost). Each is a count that only grows.
 */
public interface LeaseCounts {

  /** {@code N}: the tokens one lease takes. */
  long leaseTokens();

  /** Leases Redis granted this instance (their tokens arrived here). */
  long leases();

  /** Leases asked for ahead of need, in the background. */
  long leasesAhead();

  /** Leases that added nothing although Redis may have taken their tokens (failed, or too late). */
  long leasesLost();

  /** Tokens the leases brought here to hand out. */
  long tokensLeased();

  /** Leased tokens given up unused (their second ran out; not those of a key gone quiet). */
  long tokensUnused();

  /** Requests allowed here from a lease's tokens, without a round trip of their own. */
  long allowedFromLease();

  /** Requests decided by Redis in a call of their own. */
  long decidedByRedis();

  /** Requests that found no token held while a lease was on its way, and waited for it. */
  long waitedForLease();

  /** Of those, the ones decided by the rule's local share: the lease was later than the timeout. */
  long decidedByShare();
}
