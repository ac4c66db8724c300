package io.tollgate.limiters;

/**
 * A counter per window: at most {@code limit} units in each window of {@code period}, the windows
 * starting at whole multiples of the period since the Unix epoch (a 1-minute window starts at
 * every whole minute UTC, on every node alike): the {@code fixed-window} algorithm.
 *
 * <p>A request of cost {@code c} is allowed when the window's count plus {@code c} is at most the
 * limit; the count then grows by {@code c}. A refused request counts nothing. Retry-after and reset
 * are both the time left in the current window, when the count starts again from zero. A cost larger
 * than the limit can never pass: it is refused with a retry-after of one period (a back-off, not a
 * promise).
 *
 * <p>Choose it for quotas that users read as "100 per minute, counted by the clock", and where its
 * weakness is acceptable: a client can send {@code limit} at the end of one window and {@code limit}
 * again at the start of the next, so up to twice the limit can pass within a short time across a
 * boundary. {@link SlidingWindow} smooths that at the same cost in state; {@link SlidingLog} removes
 * it. The cheapest algorithm (two longs per key, one comparison), and the simplest to mirror in Redis
 * ({@code INCRBY} in a key per window).
 */
public final class FixedWindow implements RateLimitAlgorithm<FixedWindow.State> {

  /** Per-key state: the window's index since the epoch, and the units counted in it. */
  public static final class State extends KeyState {
    long window;
    long count;

    public long window() {
      return window;
    }

    public long count() {
      return count;
    }
  }

  private final LimitSpec spec;
  private final long limit;
  private final long period;

  public FixedWindow(LimitSpec spec) {
    this.spec = spec;
    this.limit = spec.limit();
    this.period = spec.periodNanos();
  }

  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    long window = Math.floorDiv(nowNanos, period);
    long untilNextWindow = period - Math.floorMod(nowNanos, period);
    if (state.window != window) {
      state.window = window;
      state.count = 0;
    }
    if (cost > limit) {
      verdict.refuse(limit - state.count, period, untilNextWindow);
    } else if (cost <= limit - state.count) {
      state.count += cost;
      verdict.allow(limit - state.count, untilNextWindow);
    } else {
      verdict.refuse(limit - state.count, untilNextWindow, untilNextWindow);
    }
  }

  /**
   * Adds {@code delta} to the current window's count, kept between 0 and the limit. A request that
   * began in an earlier window is not corrected: that window is over.
   */
  @Override
  public void adjust(State state, long nowNanos, long delta) {
    if (state.window == Math.floorDiv(nowNanos, period)) {
      state.count = Math.max(0, Math.min(limit, state.count + delta));
    }
  }

  /**
   * The count of the window in force is kept, up to the new limit, and carried into the window of
   * the new period that holds now; a count of a window that is over is not.
   */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof FixedWindow)) {
      return null;
    }
    FixedWindow old = (FixedWindow) previous;
    State was = (State) previousState;
    if (was.window != Math.floorDiv(nowNanos, old.period) || was.count == 0) {
      return null;
    }
    State state = new State();
    state.window = Math.floorDiv(nowNanos, period);
    state.count = Math.min(limit, was.count);
    return state;
  }

  @Override
  public long idleNanosUntilFresh() {
    // A key idle for a whole period is in a later window: its count starts from zero.
    return period;
  }

  @Override
  public QuotaPolicy policy() {
    return QuotaPolicy.of(limit, period);
  }

  public LimitSpec spec() {
    return spec;
  }
}
