package io.tollgate.limiters;

/**
 * At most {@code limit} units in flight at once: the {@code concurrency} algorithm (a bulkhead).
 * A request of cost {@code c} takes {@code c} permits when that many are free, and the caller gives
 * them back with {@link #release} when the request finishes, however it finishes. There is no time
 * in it: the period only names the window of the advertised {@link QuotaPolicy}.
 *
 * <p>Nothing says when a permit will come back, so a refusal carries a fixed retry-after of
 * {@value #RETRY_AFTER_SECONDS} s (the smallest a {@code Retry-After} header can say) and, while
 * permits are held, the same reset; with none held, reset is 0. {@code remaining} is the free
 * permits. A cost larger than the limit can never pass: refused with the same retry-after. Release
 * never takes the count below zero.
 *
 * <p>Choose it to protect a slow resource (a report endpoint, an export, a database pool) from
 * piling up requests, whatever their rate; combine it with a rate rule for the rate.
 *
 * <p>A key holding permits must not be forgotten while they are held, or the permits would be lost
 * and the key would start again from zero (letting too many in) while the later releases find
 * nothing to give back. {@link #holdsResources} says so; a store must not expire or evict a key for
 * which it is true. {@link #idleNanosUntilFresh} is one hour: a key with no permits held is fresh
 * at once, and a store that only knows idle times (expire after access) then keeps a held key for
 * an hour after its last decision or release, which covers all but pathological requests.
 */
public final class Concurrency implements RateLimitAlgorithm<Concurrency.State> {

  /** Retry-after of a refusal, in seconds. */
  public static final long RETRY_AFTER_SECONDS = 1;

  private static final long RETRY_AFTER_NANOS = RETRY_AFTER_SECONDS * 1_000_000_000L;
  private static final long IDLE_NANOS = 3_600L * 1_000_000_000L;

  /** Per-key state: the permits held. */
  public static final class State extends KeyState {
    long inFlight;

    public long inFlight() {
      return inFlight;
    }
  }

  private final LimitSpec spec;
  private final long limit;

  public Concurrency(LimitSpec spec) {
    this.spec = spec;
    this.limit = spec.limit();
  }

  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    long free = limit - state.inFlight;
    if (cost <= free) {
      state.inFlight += cost;
      verdict.allow(limit - state.inFlight, 0);
    } else {
      verdict.refuse(free, RETRY_AFTER_NANOS, RETRY_AFTER_NANOS);
    }
  }

  @Override
  public void release(State state, long nowNanos, long cost) {
    state.inFlight = Math.max(0, state.inFlight - cost);
  }

  @Override
  public boolean holdsResources(State state) {
    return state.inFlight > 0;
  }

  /** The requests in progress still hold their permits, whatever the new limit. */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof Concurrency) || ((State) previousState).inFlight == 0) {
      return null;
    }
    State state = new State();
    state.inFlight = ((State) previousState).inFlight;
    return state;
  }

  @Override
  public long idleNanosUntilFresh() {
    return IDLE_NANOS;
  }

  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(limit, spec.periodNanos());
  }

  public LimitSpec spec() {
    return spec;
  }
}
