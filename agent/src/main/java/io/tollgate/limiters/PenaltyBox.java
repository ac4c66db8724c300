package io.tollgate.limiters;

/**
 * Refuses a key outright for a while once it has been refused too often: a key refused
 * {@code maxRefusals} times within {@code period} is refused, whatever its limiter would say, for
 * the next {@code penalty}. Meant for abuse: a client that keeps hammering a login form after its
 * first 429s gets a long 429 instead of one attempt every few seconds.
 *
 * <p>The retry-after of a boxed key is the time left in the box, or, when the limiter that filled
 * the box needs longer to allow the key again, that: a client that waits as told is not refused
 * again by the limiter the moment the box ends. The limiter's wait is known from the refusal that
 * filled the box, and stays exact while boxed, since the limiter counts nothing meanwhile.
 *
 * <p>Pure and per key like the algorithms: {@link #check} before the limiter, {@link #record} after
 * it, or both together by wrapping the limiter in {@link #guard}. Refusals while boxed are not
 * counted (otherwise a client that keeps trying would never get out): the box ends {@code penalty}
 * after the refusal that filled it, and the count starts again from zero. The refusal that fills
 * the box already carries the penalty as its retry-after.
 *
 * <p>The last {@code maxRefusals} refusal times are kept exactly, in a ring of longs: 8 bytes each
 * per key, so {@code maxRefusals} is at most {@value #MAX_REFUSALS}.
 */
public final class PenaltyBox {

  /** The largest refusal count a penalty box accepts. */
  public static final int MAX_REFUSALS = 1000;

  /**
   * Per-key state: recent refusal times (a ring), the end of the current box, if any, and when the
   * key may retry (the box's end, or later when the limiter that filled it said so).
   */
  public static final class State {
    final long[] refusals;
    int head;
    int size;
    long boxedUntil = Long.MIN_VALUE;
    long retryFrom = Long.MIN_VALUE;

    State(int capacity) {
      this.refusals = new long[capacity];
    }

    /** Epoch nanos at which the key leaves the box (in the past when it is not boxed). */
    public long boxedUntil() {
      return boxedUntil;
    }

    /** Refusals counted within the last period (as of the last one). */
    public int refusals() {
      return size;
    }
  }

  private final int maxRefusals;
  private final long period;
  private final long penalty;

  /**
   * @param maxRefusals refusals within {@code periodNanos} that put the key in the box
   * @param periodNanos the window the refusals are counted in
   * @param penaltyNanos how long the key stays in the box
   */
  public PenaltyBox(int maxRefusals, long periodNanos, long penaltyNanos) {
    if (maxRefusals <= 0 || maxRefusals > MAX_REFUSALS) {
      throw new IllegalArgumentException(
          "refusals before the penalty must be between 1 and " + MAX_REFUSALS + ": " + maxRefusals);
    }
    if (periodNanos <= 0 || penaltyNanos <= 0) {
      throw new IllegalArgumentException("penalty period and duration must be positive");
    }
    this.maxRefusals = maxRefusals;
    this.period = periodNanos;
    this.penalty = penaltyNanos;
  }

  public State newState() {
    return new State(maxRefusals);
  }

  /**
   * Before the limiter: if the key is in the box, writes the refusal into {@code verdict} and
   * returns true (do not ask the limiter); otherwise returns false and leaves the verdict alone.
   */
  public boolean check(State state, long nowNanos, Verdict verdict) {
    if (nowNanos < state.boxedUntil) {
      long left = Math.max(state.boxedUntil, state.retryFrom) - nowNanos;
      verdict.refuse(0, left, left);
      return true;
    }
    return false;
  }

  /**
   * After the limiter: counts the verdict if it is a refusal; when that makes {@code maxRefusals}
   * within the period, boxes the key and stretches the verdict's retry-after and reset to the
   * penalty (when the limiter's own wait is not longer).
   */
  public void record(State state, long nowNanos, Verdict verdict) {
    if (verdict.allowed) {
      return;
    }
    int capacity = state.refusals.length;
    while (state.size > 0 && nowNanos - state.refusals[state.head] >= period) {
      state.head = (state.head + 1) % capacity;
      state.size--;
    }
    state.refusals[(state.head + state.size) % capacity] = nowNanos;
    state.size++;
    if (state.size >= maxRefusals) {
      state.boxedUntil = nowNanos + penalty;
      long wait = Math.max(penalty, verdict.retryAfterNanos);
      long retryFrom = nowNanos + wait;
      state.retryFrom = retryFrom < nowNanos ? Long.MAX_VALUE : retryFrom; // saturated
      state.head = 0;
      state.size = 0;
      verdict.remaining = 0;
      verdict.retryAfterNanos = Math.max(verdict.retryAfterNanos, penalty);
      verdict.resetNanos = Math.max(verdict.resetNanos, penalty);
      verdict.nextUnitNanos = verdict.retryAfterNanos;
    }
  }

  /** After this long without a refusal, the key has no refusals counted and is not boxed. */
  public long idleNanosUntilFresh() {
    return Math.max(period, penalty);
  }

  /** The limiter with this box in front of it, as one algorithm. */
  public <S> RateLimitAlgorithm<Guarded.State<S>> guard(RateLimitAlgorithm<S> limiter) {
    return new Guarded<>(this, limiter);
  }

  /** A limiter behind a penalty box; the state is the limiter's and the box's, side by side. */
  public static final class Guarded<S> implements RateLimitAlgorithm<Guarded.State<S>> {

    /** Per-key state: the limiter's state and the box's. */
    public static final class State<S> extends KeyState {
      final S limiter;
      final PenaltyBox.State box;

      State(S limiter, PenaltyBox.State box) {
        this.limiter = limiter;
        this.box = box;
      }

      public S limiter() {
        return limiter;
      }

      public PenaltyBox.State box() {
        return box;
      }
    }

    private final PenaltyBox box;
    private final RateLimitAlgorithm<S> limiter;

    Guarded(PenaltyBox box, RateLimitAlgorithm<S> limiter) {
      this.box = box;
      this.limiter = limiter;
    }

    @Override
    public State<S> newState() {
      return new State<>(limiter.newState(), box.newState());
    }

    @Override
    public void decide(State<S> state, long nowNanos, long cost, Verdict verdict) {
      if (box.check(state.box, nowNanos, verdict)) {
        return;
      }
      limiter.decide(state.limiter, nowNanos, cost, verdict);
      box.record(state.box, nowNanos, verdict);
    }

    @Override
    public void release(State<S> state, long nowNanos, long cost) {
      limiter.release(state.limiter, nowNanos, cost);
    }

    @Override
    public void adjust(State<S> state, long nowNanos, long delta) {
      limiter.adjust(state.limiter, nowNanos, delta);
    }

    @Override
    public boolean holdsResources(State<S> state) {
      return limiter.holdsResources(state.limiter);
    }

    @Override
    public long idleNanosUntilFresh() {
      return Math.max(limiter.idleNanosUntilFresh(), box.idleNanosUntilFresh());
    }

    @Override
    public QuotaPolicy policy() {
      return limiter.policy();
    }
  }
}
