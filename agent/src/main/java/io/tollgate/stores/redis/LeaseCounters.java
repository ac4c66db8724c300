package io.tollgate.stores.redis;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one rule's token leases ({@code redis: lease-tokens: N}, {@link TokenLeaseStore}) did in
 * this instance, since the agent started: kept by the rule's name across reloads, as its other
 * counters are, and read by {@code status} and the metrics. They answer two questions:
 *
 * <ul>
 *   <li><b>Is leasing working?</b> Requests {@link #allowedFromLease allowed from a lease} (no
 *       round trip) against those {@link #decidedByRedis decided by Redis} in a call of their own;
 *       {@link #leasesAhead leases taken ahead} against {@link #waitedForLease requests that waited}
 *       for one.
 *   <li><b>Is it over- or under-admitting?</b> It over-admits only through the requests {@link
 *       #decidedByShare decided by the local share} while a lease was late (owed to Redis
 *       afterwards), beyond the tokens an instance may hold ({@code N + ceil(N/2) - 1} per key,
 *       {@code tokensLeased - allowedFromLease - tokensUnused} of them now); it under-uses the
 *       {@link #tokensUnused tokens given up unused} (expired) and the tokens
 *       of the {@link #leasesLost leases lost} (failed, or answered after their second: Redis may
 *       have taken them).
 * </ul>
 *
 * <p>Cheap on the request path: a request allowed from a lease writes one {@link LongAdder}
 * (under its key's monitor, which it holds anyway); the others are written once per lease.
 */
public final class LeaseCounters {

  private final LongAdder leases = new LongAdder();
  private final LongAdder leasesAhead = new LongAdder();
  private final LongAdder leasesLost = new LongAdder();
  private final LongAdder tokensLeased = new LongAdder();
  private final LongAdder tokensUnused = new LongAdder();
  private final LongAdder allowedFromLease = new LongAdder();
  private final LongAdder decidedByRedis = new LongAdder();
  private final LongAdder waitedForLease = new LongAdder();
  private final LongAdder decidedByShare = new LongAdder();

  void leaseArrived(long tokensForHere) {
    leases.increment();
    tokensLeased.add(tokensForHere);
  }

  void leaseAskedAhead() {
    leasesAhead.increment();
  }

  void leaseLost() {
    leasesLost.increment();
  }

  void tokensGivenUp(long tokens) {
    if (tokens > 0) {
      tokensUnused.add(tokens);
    }
  }

  void countAllowedFromLease() {
    allowedFromLease.increment();
  }

  void countDecidedByRedis() {
    decidedByRedis.increment();
  }

  void countWaitedForLease() {
    waitedForLease.increment();
  }

  void countDecidedByShare() {
    decidedByShare.increment();
  }

  /** Leases Redis granted this instance: their tokens arrived here to be handed out. */
  public long leases() {
    return leases.sum();
  }

  /** Leases asked for ahead of need, in the background: no request waited on their call. */
  public long leasesAhead() {
    return leasesAhead.sum();
  }

  /**
   * Leases asked for that added nothing although Redis may have taken their tokens: the call
   * failed, or its reply came after the lease's second. (A lease Redis refused is not lost: it took
   * nothing.)
   */
  public long leasesLost() {
    return leasesLost.sum();
  }

  /**
   * Tokens the leases brought here to hand out ({@code N} each; {@code N - 1} for a lease asked for
   * by a request, which takes one itself).
   */
  public long tokensLeased() {
    return tokensLeased.sum();
  }

  /**
   * Leased tokens given up unused: their second ran out, as the key's next request or lease
   * finds. Those of a key that goes quiet with tokens held are not counted (no listener on the
   * leases' cache: it cost the hot path ~0.3 µs a request): {@code tokensLeased - allowedFromLease -
   * tokensUnused} is what is held now or was left that way.
   */
  public long tokensUnused() {
    return tokensUnused.sum();
  }

  /** Requests allowed here from a lease's tokens, without a round trip of their own. */
  public long allowedFromLease() {
    return allowedFromLease.sum();
  }

  /**
   * Requests decided by Redis in a call of their own: a key not hot, near its limit, a cost other
   * than 1, or the request that asks for a lease when none is held.
   */
  public long decidedByRedis() {
    return decidedByRedis.sum();
  }

  /**
   * Requests that found no token held while a lease was on its way: each waits for it, at most
   * until the backend's {@code timeout} since it was asked for ({@link #decidedByShare} past that).
   */
  public long waitedForLease() {
    return waitedForLease.sum();
  }

  /**
   * Of those, the ones whose lease was not back within the backend's {@code timeout} (from when it
   * was asked for): decided by the rule's local share ({@link RedisFailure#BUSY}) and owed to Redis
   * afterwards. While a lease stays late, every request of its key that finds no token is one,
   * without waiting.
   */
  public long decidedByShare() {
    return decidedByShare.sum();
  }
}
