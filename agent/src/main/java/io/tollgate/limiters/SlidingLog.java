package io.tollgate.limiters;

/**
 * An exact log of the last period: the {@code sliding-log} algorithm. The key keeps one timestamp
 * per unit allowed within the last {@code period}, in a ring buffer; a request of cost {@code c}
 * at {@code now} is allowed when fewer than {@code limit - c + 1} units were allowed in {@code (now
 * - period, now]}, and then logs {@code c} timestamps. So in any time interval of length {@code
 * period}, at most {@code limit} units pass: no boundary bursts, no estimate. A refused request
 * logs nothing.
 *
 * <p>Retry-after is exact: the moment enough of the oldest entries are a full period old for the
 * same request to fit. Reset is when the newest entry is a period old (the log empty). A cost
 * larger than the limit can never pass: it is refused with a retry-after of one period (a back-off,
 * not a promise).
 *
 * <p>Choose it when the limit must hold over every interval, not just on average or per window,
 * and the limit is small: login attempts, OTP sends, password resets. Memory grows with the limit:
 * <b>8 bytes per unit allowed in the last period</b>, plus about 40 bytes of object and array
 * headers, per key: at most {@code 8 * limit + 40} bytes (a limit of 100: under 1 KB; the maximum
 * limit, {@value #MAX_LIMIT}: about 80 KB per key). The buffer starts empty and doubles as needed,
 * so a key that sends little costs little. Limits above {@value #MAX_LIMIT} are refused at
 * construction: use {@link SlidingWindow} for those. In Redis: a sorted set per key.
 */
public final class SlidingLog implements RateLimitAlgorithm<SlidingLog.State> {

  /** The largest limit a sliding log accepts: 80 KB of timestamps per key. */
  public static final long MAX_LIMIT = 10_000;

  private static final long[] EMPTY = new long[0];

  /** Per-key state: a ring buffer of allowed units' timestamps, oldest at {@code head}. */
  public static final class State extends KeyState {
    long[] times = EMPTY;
    int head;
    int size;

    /** Units logged within the last period (as of the last decision). */
    public int size() {
      return size;
    }
  }

  private final LimitSpec spec;
  private final int limit;
  private final long period;

  public SlidingLog(LimitSpec spec) {
    if (spec.limit() > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "sliding-log keeps 8 bytes per unit per key, so its limit is at most " + MAX_LIMIT
              + " (about 80 KB per key); " + spec.limit() + " is too large: use sliding-window"
              + " for large limits");
    }
    this.spec = spec;
    this.limit = (int) spec.limit();
    this.period = spec.periodNanos();
  }

  @Override
  public State newState() {
    return new State();
  }

  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    // Forget the entries that are a whole period old.
    while (state.size > 0 && nowNanos - state.times[state.head] >= period) {
      state.head = (state.head + 1) % state.times.length;
      state.size--;
    }
    long free = limit - state.size;

    if (cost > limit) {
      verdict.refuse(free, period, resetNanos(state, nowNanos));
    } else if (cost <= free) {
      int n = (int) cost;
      ensureCapacity(state, state.size + n);
      int length = state.times.length;
      for (int i = 0; i < n; i++) {
        state.times[(state.head + state.size) % length] = nowNanos;
        state.size++;
      }
      // One more unit is free when the oldest entry is a period old (none: a cost of 0 on an
      // empty log, nothing is to come).
      verdict.allow(
          limit - state.size,
          resetNanos(state, nowNanos),
          state.size == 0 ? 0 : state.times[state.head] + period - nowNanos);
    } else {
      // The cost - free oldest entries must leave for cost units to fit: wait for the last of them.
      int mustLeave = (int) (cost - free); // entries to forget, 1..size
      long leaving = state.times[(state.head + mustLeave - 1) % state.times.length];
      verdict.refuse(free, leaving + period - nowNanos, resetNanos(state, nowNanos));
    }
  }

  /** Nanoseconds until the newest entry is a period old; 0 for an empty log. */
  private long resetNanos(State state, long nowNanos) {
    if (state.size == 0) {
      return 0;
    }
    long newest = state.times[(state.head + state.size - 1) % state.times.length];
    return newest + period - nowNanos;
  }

  /** Grows the buffer (doubling, at most to the limit) so that it holds {@code needed} entries. */
  private void ensureCapacity(State state, int needed) {
    int length = state.times.length;
    if (needed <= length) {
      return;
    }
    int newLength = Math.min(limit, Math.max(needed, Math.max(8, length * 2)));
    long[] grown = new long[newLength];
    for (int i = 0; i < state.size; i++) {
      grown[i] = state.times[(state.head + i) % length];
    }
    state.times = grown;
    state.head = 0;
  }

  /**
   * The log is kept, its newest entries up to the new limit (the script trims a longer list the
   * same way); the new period says when each entry is forgotten.
   */
  @Override
  public State inherit(RateLimitAlgorithm<?> previous, Object previousState, long nowNanos) {
    if (!(previous instanceof SlidingLog)) {
      return null;
    }
    State was = (State) previousState;
    int keep = Math.min(was.size, limit);
    if (keep == 0) {
      return null;
    }
    State state = new State();
    state.times = new long[keep];
    for (int i = 0; i < keep; i++) {
      state.times[i] = was.times[(was.head + was.size - keep + i) % was.times.length];
    }
    state.size = keep;
    return state;
  }

  /**
   * A refund forgets the newest {@code -delta} entries; an extra charge logs {@code delta} more at
   * {@code now}, up to the limit.
   */
  @Override
  public void adjust(State state, long nowNanos, long delta) {
    if (delta < 0) {
      state.size = (int) Math.max(0, state.size + delta);
      return;
    }
    while (state.size > 0 && nowNanos - state.times[state.head] >= period) {
      state.head = (state.head + 1) % state.times.length;
      state.size--;
    }
    int n = (int) Math.min(delta, limit - state.size);
    if (n <= 0) {
      return;
    }
    ensureCapacity(state, state.size + n);
    int length = state.times.length;
    for (int i = 0; i < n; i++) {
      state.times[(state.head + state.size) % length] = nowNanos;
      state.size++;
    }
  }

  @Override
  public long idleNanosUntilFresh() {
    // Idle for a period, every entry is a period old: the log is empty.
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
