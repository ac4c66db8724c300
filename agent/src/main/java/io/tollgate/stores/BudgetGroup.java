package io.tollgate.stores;

import io.tollgate.limiters.Verdict;

/**
 * The budgets of one rule with several limits, decided together: a request is charged on all of
 * them or on none, atomically, in one step (one monitor locally, one script on Redis), where
 * deciding them one by one and giving back what the others took would let other requests see the
 * budgets half charged, and on Redis take up to two round trips per limit.
 */
public interface BudgetGroup {

  /**
   * Decides one request of {@code cost} units for {@code key} on every budget, writing budget
   * {@code i}'s verdict into {@code verdicts[i]}. When any refuses, none keeps a charge (a budget
   * that allowed it says so in its verdict, but keeps nothing).
   */
  void decideAll(String key, long cost, Verdict[] verdicts);

  /**
   * Budget {@code index}'s own store: its cost corrections ({@link LimiterStore#adjust}) and key
   * count. Its {@link LimiterStore#decide} decides that budget alone.
   */
  LimiterStore budget(int index);

  int size();
}
