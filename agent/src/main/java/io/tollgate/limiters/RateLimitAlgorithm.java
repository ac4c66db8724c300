package io.tollgate.limiters;

/**
 * One rate-limiting algorithm with its parameters fixed (limit, period, burst...).
 *
 * <p>{@link #decide} is a pure function of (state, now, cost) and the parameters: it reads the
 * per-key state, writes the new state back into the same object and the outcome into the verdict.
 * It has no other input and no side effect, so that the Redis scripts can mirror it line for line
 * and the conformance tests can compare the two. The store guarantees exclusive access to the
 * state for the duration of the call.
 *
 * @param <S> the mutable per-key state
 */
public interface RateLimitAlgorithm<S> {

  /** The state of a key never seen before (a full bucket, an empty window). */
  S newState();

  /** Decides one request of {@code cost} units at {@code nowNanos} (epoch nanoseconds). */
  void decide(S state, long nowNanos, long cost, Verdict verdict);

  /**
   * Gives back what a finished request held. Only the {@code concurrency} algorithm holds anything;
   * for the others this is a no-op.
   */
  default void release(S state, long nowNanos, long cost) {}

  /**
   * A request this algorithm admitted has ended, {@code latencyNanos} after its admission, and
   * {@code failed} (a 5xx response, an exception, a timeout) or not: what it held is given back.
   * The {@code adaptive-concurrency} algorithm learns its limit from these; the default only
   * {@link #release}s.
   */
  default void complete(S state, long nowNanos, long cost, long latencyNanos, boolean failed) {
    release(state, nowNanos, cost);
  }

  /**
   * How a request over the limit may wait for a permit in a store that can hold it; null (the
   * default) when it is refused at once.
   */
  default PermitQueue<S> queueing() {
    return null;
  }

  /**
   * Corrects what a request was charged once it is known what it really cost ({@code cost-header}),
   * or takes back a charge that another limit of the same rule refused: {@code delta > 0} charges
   * that many more units, {@code delta < 0} gives units back. Never refuses and never fills beyond
   * full nor empties below empty: an extra charge can use up the quota, a refund can make it whole,
   * no more. Pure like {@link #decide}. The default does nothing (the {@code concurrency}
   * algorithm, whose units are given back by {@link #release}).
   */
  default void adjust(S state, long nowNanos, long delta) {}

  /**
   * A key's state for this algorithm that keeps what {@code previousState} had used under {@code
   * previous}, the same rule before a reload changed its limit, period or burst; null to start
   * the key afresh (the default, and the answer for an algorithm of another kind). Pure like
   * {@link #decide}: the Redis scripts make the same conversion of a state written under other
   * parameters. See the README's section on reloads for what each algorithm keeps.
   */
  default S inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    return null;
  }

  /**
   * Whether this state holds something that a later {@link #release} gives back (the
   * {@code concurrency} algorithm's permits). A store must not expire or evict a key while this is
   * true, whatever {@link #idleNanosUntilFresh()} says: forgetting it would lose the permits.
   */
  default boolean holdsResources(S state) {
    return false;
  }

  /**
   * How long a key may go unused before its state is indistinguishable from {@link #newState()}:
   * a store may forget the key after that, and nothing is lost (unless {@link #holdsResources}).
   */
  long idleNanosUntilFresh();

  /** The quota and window advertised in {@code RateLimit-Policy}. */
  QuotaPolicy policy();
}
