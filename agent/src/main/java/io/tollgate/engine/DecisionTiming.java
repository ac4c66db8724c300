package io.tollgate.engine;

import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;

/**
 * Which decisions the engine times with the clock, and what each timed one stands for in the
 * metrics' decision time ({@code tollgate_rule_decision_seconds_sum}; its count counts every
 * decision, timed or not).
 *
 * <p>Timed every time: a decision whose store may hold the request ({@link
 * io.tollgate.stores.LimiterStore#mayHold}: a shared store, a queue for a permit), or a penalty
 * box or per-client share (which may be shared too), since the time a request is held is bounded
 * ({@link RequestHold}); a request already held (the agent's start, an earlier decision point);
 * and a decision with no request context to count in (a framework's only entry point). Otherwise
 * a decision is a local update of ~100 ns, and two clock readings would cost half of it again:
 * each thread times its first decision and then one in {@value #STRIDE}, which stands for itself
 * and the decisions since the thread's last timed one.
 */
final class DecisionTiming {

  /** One decision in this many is timed on each thread, when none needs to be. */
  static final int STRIDE = 64;

  private DecisionTiming() {}

  /**
   * How many decisions the next one's time stands for: 0 when it is not timed, 1 when every such
   * decision is, and up to {@link #STRIDE} for the thread's sample.
   */
  static long weight(RequestScope scope, long heldNanos, boolean storesMayHold) {
    if (scope == null || storesMayHold || heldNanos != 0) {
      return 1;
    }
    int untimed = scope.untimedDecisions;
    if (untimed < 0) { // the thread's first: timed, so that a rule's metrics show a time at once
      scope.untimedDecisions = 0;
      return 1;
    }
    if (untimed + 1 >= STRIDE) {
      scope.untimedDecisions = 0;
      return untimed + 1L;
    }
    scope.untimedDecisions = untimed + 1;
    return 0;
  }

  /** Whether a decision on some rule of {@code ruleSet} may hold a request. */
  static boolean anyStoreMayHold(RuleSet ruleSet) {
    for (Rule rule : ruleSet.rules()) {
      if (rule.penalty() != null || rule.clientShare() != null) {
        return true;
      }
      for (Rule budget : rule.allBudgets()) {
        if (budget.store() == null || budget.store().mayHold()) {
          return true;
        }
      }
    }
    return false;
  }
}
