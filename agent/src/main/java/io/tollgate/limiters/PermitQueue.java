package io.tollgate.limiters;

/**
 * Waiting for a permit ({@code adaptive-concurrency} with {@code max-wait}), for a store that can
 * hold a request: every method runs under the key state's monitor, which {@link Object#wait} gives
 * up while the request waits, and which a permit given back or a growing limit notifies.
 *
 * @param <S> the algorithm's per-key state
 */
public interface PermitQueue<S> {

  /** How long a request over the limit may wait; more than 0. */
  long maxWaitNanos();

  /** Joins the queue when it has room; false: the request is refused now. */
  boolean joinQueue(S state);

  /** Decides again for a request in the queue, ahead of requests arriving. */
  void decideQueued(S state, long nowNanos, long cost, Verdict verdict);

  /** Leaves the queue (served, timed out or interrupted), passing on a wake-up if one is due. */
  void leaveQueue(S state);
}
