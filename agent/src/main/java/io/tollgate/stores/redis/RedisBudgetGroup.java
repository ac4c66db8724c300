package io.tollgate.stores.redis;

import io.tollgate.limiters.Verdict;
import io.tollgate.stores.BudgetGroup;
import io.tollgate.stores.LimiterStore;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A rule's several limits on Redis, decided in one {@code EVALSHA}: {@code budgets.lua} runs the
 * algorithm's script on each budget's key, all in the rule's hash tag (one Cluster slot), and when
 * one refuses gives back what the others took before the script ends, as {@link
 * io.tollgate.limiters.LimitGroup} does locally. So one round trip per decision whatever the
 * number of limits, and no other request sees the budgets half charged.
 *
 * <p>Each budget keeps its own {@code on-failure} store ({@link FailurePolicyStore}), so verdicts,
 * metrics and the local fallback are per budget as before: the group makes the one call, and each
 * budget's store then reads its part of the reply, or, when the call failed, applies its policy
 * (without calling Redis again). That handover goes through {@link Member}, the decider of each
 * budget's failure-policy store, and a per-thread slot that holds the call's outcome only while
 * {@link #decideAll} runs.
 */
public final class RedisBudgetGroup implements BudgetGroup {

  private final RedisAlgorithmStore[] shared;
  private final LimiterStore[] budgets;
  private final RedisScript script;
  private final ThreadLocal<Outcome> deciding = new ThreadLocal<>();

  /** What the one call of {@link #decideAll} answered: its reply, or why there is none. */
  private static final class Outcome {
    List<Object> reply;
    BackendUnavailableException failure;
  }

  /**
   * @param shared each budget's Redis store, all of one algorithm ({@link
   *     RedisAlgorithmStore#decidesInGroups})
   * @param withPolicy wraps a budget's decider (a {@link Member}) in that budget's failure policy:
   *     the store the rule uses for the budget
   */
  public RedisBudgetGroup(
      List<RedisAlgorithmStore> shared,
      BiFunction<RedisAlgorithmStore, LimiterStore, LimiterStore> withPolicy) {
    this.shared = shared.toArray(new RedisAlgorithmStore[0]);
    this.script = this.shared[0].script();
    this.budgets = new LimiterStore[this.shared.length];
    for (int i = 0; i < budgets.length; i++) {
      if (!this.shared[i].decidesInGroups() || this.shared[i].script() != script) {
        throw new IllegalArgumentException(
            "budget " + this.shared[i].ruleName() + " cannot be decided with the others");
      }
    }
    for (int i = 0; i < budgets.length; i++) {
      budgets[i] = withPolicy.apply(this.shared[i], new Member(i));
    }
  }

  /** Whether these budgets can be decided in one call. */
  public static boolean canGroup(List<RedisAlgorithmStore> shared) {
    for (RedisAlgorithmStore s : shared) {
      if (!s.decidesInGroups() || s.script() != shared.get(0).script()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void decideAll(String key, long cost, Verdict[] verdicts) {
    RedisAlgorithmStore.checkCost(cost);
    Outcome outcome = new Outcome();
    Object[] budgetsAndArgvs = new Object[shared.length * 2];
    for (int i = 0; i < shared.length; i++) {
      budgetsAndArgvs[2 * i] = shared[i];
      budgetsAndArgvs[2 * i + 1] = shared[i].decideArgv(cost);
    }
    String[] first = (String[]) budgetsAndArgvs[1];
    try {
      outcome.reply =
          shared[0].backend().eval(
              script,
              shared[0].ruleKey(key),
              RedisAlgorithmStore.budgetsArgv(
                  RedisAlgorithmStore.DECIDE, first[1], first[2], budgetsAndArgvs));
    } catch (BackendUnavailableException e) {
      outcome.failure = e;
    }
    deciding.set(outcome);
    try {
      for (int i = 0; i < budgets.length; i++) {
        budgets[i].decide(key, cost, verdicts[i]);
      }
    } finally {
      deciding.remove();
    }
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
   * Budget {@code index} as its failure-policy store's decider: within {@link #decideAll}, its part
   * of the group's reply (or the group call's failure); otherwise that budget alone on Redis.
   */
  private final class Member implements LimiterStore {
    private final int index;

    Member(int index) {
      this.index = index;
    }

    @Override
    public void decide(String key, long cost, Verdict verdict) {
      Outcome outcome = deciding.get();
      if (outcome == null) {
        shared[index].decide(key, cost, verdict);
      } else if (outcome.failure != null) {
        throw shared[index].withLateDecision(outcome.failure, index, script);
      } else {
        shared[index].applyDecision(
            RedisAlgorithmStore.replyOf(outcome.reply, index, script), verdict);
      }
    }

    @Override
    public void adjust(String key, long delta) {
      shared[index].adjust(key, delta);
    }

    @Override
    public void release(String key, long cost) {
      shared[index].release(key, cost);
    }

    @Override
    public long estimatedKeys() {
      return shared[index].estimatedKeys();
    }
  }
}
