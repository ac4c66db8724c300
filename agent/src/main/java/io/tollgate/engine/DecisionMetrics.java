package io.tollgate.engine;

import io.tollgate.diagnostics.metrics.TollgateMetrics;

/** Reports each decision's verdicts to the rule metrics, once per request and rule. */
final class DecisionMetrics {

  private DecisionMetrics() {}

  /**
   * Counts the verdicts from index {@code from} on (those of this decision; earlier ones were
   * counted at an earlier entry point of the same request), each with the decision's latency, on
   * the counters each budget keeps (no lookup by name per request).
   */
  static void record(RuleVerdicts verdicts, int from, long decisionNanos) {
    record(verdicts, from, decisionNanos, 1);
  }

  /**
   * As above, for a decision whose time stands for {@code weight} decisions ({@link
   * DecisionTiming}); 0 when it was not timed: then only counted.
   */
  static void record(RuleVerdicts verdicts, int from, long decisionNanos, long weight) {
    if (verdicts == null) {
      return;
    }
    for (int i = from, n = verdicts.size(); i < n; i++) {
      RuleVerdicts.Entry entry = verdicts.entry(i);
      TollgateMetrics.record(entry.rule.metrics(), entry.verdict.allowed, entry.rule.isShadow(),
          entry.key, entry.verdict.fallback, decisionNanos, weight);
    }
  }
}
