package io.tollgate.stores;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitGroup;
import io.tollgate.limiters.Verdict;

/**
 * A rule's several limits in this process: one {@link LocalLimiterStore} of {@link LimitGroup}
 * states, so each key has one state for all of its limits, decided under one monitor.
 */
public final class LocalBudgetGroup implements BudgetGroup {

  private final LimitGroup limits;
  private final LocalLimiterStore<LimitGroup.State> store;
  private final LimiterStore[] budgets;

  public LocalBudgetGroup(LimitGroup limits, Clock clock, long maxKeys) {
    this.limits = limits;
    this.store = new LocalLimiterStore<>(limits, clock, maxKeys);
    this.budgets = new LimiterStore[limits.size()];
    for (int i = 0; i < budgets.length; i++) {
      budgets[i] = new Budget(i);
    }
  }

  @Override
  public void decideAll(String key, long cost, Verdict[] verdicts) {
    store.update(key, true, (state, now) -> limits.decideAll(state, now, cost, verdicts));
  }

  @Override
  public LimiterStore budget(int index) {
    return budgets[index];
  }

  @Override
  public int size() {
    return budgets.length;
  }

  /**
   * At a reload that changed some of the rule's limits: takes over {@code previous}'s keys, limit
   * {@code i} carrying over {@code previous}'s limit {@code from[i]} (or starting afresh where
   * {@code from[i] < 0}), as {@link LocalLimiterStore#takeOver} does for one.
   */
  public void takeOver(LocalBudgetGroup previous, int[] from) {
    LimitGroup old = previous.limits;
    // From that group only: the index map means nothing to a state of an older one.
    store.takeOver(
        previous.store,
        (writer, state, now) ->
            writer == old ? limits.inherit(old, (LimitGroup.State) state, from, now) : null);
  }

  public LimitGroup limits() {
    return limits;
  }

  /** The store of all the limits' states. */
  public LocalLimiterStore<LimitGroup.State> store() {
    return store;
  }

  /** One limit of the group: decides, corrects and releases that limit alone. */
  private final class Budget implements LimiterStore {
    private final int index;

    Budget(int index) {
      this.index = index;
    }

    @Override
    public void decide(String key, long cost, Verdict verdict) {
      store.update(key, true, (state, now) -> limits.decide(state, now, index, cost, verdict));
    }

    @Override
    public void adjust(String key, long delta) {
      if (delta != 0) {
        // A refund on a forgotten key has nothing to give back; a charge on one starts it afresh.
        store.update(key, delta > 0, (state, now) -> limits.adjust(state, now, index, delta));
      }
    }

    @Override
    public long estimatedKeys() {
      return store.estimatedKeys();
    }

    /** A local update of the group's state: nothing waits here. */
    @Override
    public boolean mayHold() {
      return false;
    }
  }
}
