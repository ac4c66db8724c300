package io.tollgate.limiters;

import java.util.List;

/**
 * The several limits of one rule ({@code limits: [{limit: 10, period: 1s}, {limit: 1000, period:
 * 1h}]}) as one algorithm with one state per key, as Bucket4j keeps one state for all of a bucket's
 * limits: a request is charged on all of them, or on none.
 *
 * <p>{@link #decideAll} decides each limit in order, and when one refuses gives back what the
 * others took ({@link RateLimitAlgorithm#adjust} by {@code -cost}), all within the one call that
 * the store makes under the key's monitor: no other request ever sees a state in which some limits
 * are charged and others not. The Redis driver {@code budgets.lua} does the same, in the same order,
 * within one script.
 *
 * <p>All limits are of one algorithm (a rule names one), and none is {@code concurrency} (which
 * takes one limit).
 */
public final class LimitGroup implements RateLimitAlgorithm<LimitGroup.State> {

  /** One key's state: the state of each limit, in the rule's order. */
  public static final class State extends KeyState {
    final Object[] parts;

    State(Object[] parts) {
      this.parts = parts;
    }

    /** Limit {@code index}'s state. */
    public Object part(int index) {
      return parts[index];
    }
  }

  private final RateLimitAlgorithm<Object>[] limits;
  private final long idleNanosUntilFresh;

  @SuppressWarnings("unchecked")
  public LimitGroup(List<? extends RateLimitAlgorithm<?>> limits) {
    if (limits.isEmpty()) {
      throw new IllegalArgumentException("a group of limits needs at least one");
    }
    this.limits = limits.toArray(new RateLimitAlgorithm[0]);
    long idle = 0;
    for (RateLimitAlgorithm<?> limit : limits) {
      idle = Math.max(idle, limit.idleNanosUntilFresh());
    }
    this.idleNanosUntilFresh = idle;
  }

  public int size() {
    return limits.length;
  }

  public RateLimitAlgorithm<?> limit(int index) {
    return limits[index];
  }

  @Override
  public State newState() {
    Object[] parts = new Object[limits.length];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = limits[i].newState();
    }
    return new State(parts);
  }

  /**
   * Decides one request on every limit, writing limit {@code i}'s verdict into {@code
   * verdicts[i]}: allowed on all, or charged on none (a limit that allowed it says so in its
   * verdict, with what it would have left, but keeps nothing).
   *
   * @return whether every limit allowed the request
   */
  public boolean decideAll(State state, long nowNanos, long cost, Verdict[] verdicts) {
    boolean refused = false;
    for (int i = 0; i < limits.length; i++) {
      limits[i].decide(state.parts[i], nowNanos, cost, verdicts[i]);
      refused |= !verdicts[i].allowed;
    }
    if (refused) {
      for (int i = 0; i < limits.length; i++) {
        if (verdicts[i].allowed) {
          limits[i].adjust(state.parts[i], nowNanos, -cost);
        }
      }
    }
    return !refused;
  }

  /**
   * One verdict for the whole rule: allowed with the least left and the latest reset, or the
   * refusal with the longest wait.
   */
  @Override
  public void decide(State state, long nowNanos, long cost, Verdict verdict) {
    Verdict[] each = new Verdict[limits.length];
    for (int i = 0; i < each.length; i++) {
      each[i] = new Verdict();
    }
    decideAll(state, nowNanos, cost, each);
    combine(each, verdict);
  }

  /** The rule's verdict of its limits' verdicts, as {@link #decide} gives it. */
  public static void combine(Verdict[] each, Verdict into) {
    Verdict longestRefusal = null;
    long remaining = Long.MAX_VALUE;
    long reset = 0;
    long delay = 0;
    // More quota for the rule comes when the limit with the least left gives some back.
    long nextUnit = 0;
    for (Verdict v : each) {
      if (!v.allowed && (longestRefusal == null || v.retryAfterNanos > longestRefusal.retryAfterNanos)) {
        longestRefusal = v;
      }
      if (v.remaining < remaining || (v.remaining == remaining && v.nextUnitNanos > nextUnit)) {
        nextUnit = v.nextUnitNanos;
      }
      remaining = Math.min(remaining, v.remaining);
      reset = Math.max(reset, v.resetNanos);
      delay = Math.max(delay, v.delayNanos);
    }
    if (longestRefusal != null) {
      into.refuse(longestRefusal.remaining, longestRefusal.retryAfterNanos, longestRefusal.resetNanos);
    } else {
      into.allow(remaining, reset, nextUnit);
      into.delayNanos = delay;
    }
  }

  /**
   * A key's state carried over from {@code previous}'s (a reload): limit {@code i} inherits from
   * {@code previous}'s limit {@code from[i]} ({@link RateLimitAlgorithm#inherit}), or starts afresh
   * where {@code from[i] < 0}; null when every limit starts afresh.
   */
  public State inherit(LimitGroup previous, State old, int[] from, long nowNanos) {
    Object[] parts = new Object[limits.length];
    boolean any = false;
    for (int i = 0; i < parts.length; i++) {
      Object carried =
          from[i] < 0
              ? null
              : limits[i].inherit(previous.limits[from[i]], old.parts[from[i]], nowNanos);
      any |= carried != null;
      parts[i] = carried != null ? carried : limits[i].newState();
    }
    return any ? new State(parts) : null;
  }

  /** Decides limit {@code index} alone. */
  public void decide(State state, long nowNanos, int index, long cost, Verdict verdict) {
    limits[index].decide(state.parts[index], nowNanos, cost, verdict);
  }

  /** Corrects limit {@code index} alone (its {@code cost-header} correction). */
  public void adjust(State state, long nowNanos, int index, long delta) {
    limits[index].adjust(state.parts[index], nowNanos, delta);
  }

  @Override
  public void adjust(State state, long nowNanos, long delta) {
    for (int i = 0; i < limits.length; i++) {
      limits[i].adjust(state.parts[i], nowNanos, delta);
    }
  }

  @Override
  public void release(State state, long nowNanos, long cost) {
    for (int i = 0; i < limits.length; i++) {
      limits[i].release(state.parts[i], nowNanos, cost);
    }
  }

  @Override
  public boolean holdsResources(State state) {
    for (int i = 0; i < limits.length; i++) {
      if (limits[i].holdsResources(state.parts[i])) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long idleNanosUntilFresh() {
    return idleNanosUntilFresh;
  }

  /** The first limit's: a group's headers are its limits' own ({@link #limit}). */
  @Override
  public QuotaPolicy policy() {
    return limits[0].policy();
  }
}
