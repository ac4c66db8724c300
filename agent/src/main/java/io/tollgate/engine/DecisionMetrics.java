package io.tollgate.engine;

import io.tollgate.diagnostics.metrics.TollgateMetrics;
import java.util.List;

/** Reports each decision's verdicts to the rule metrics, once per request and rule. */
final class DecisionMetrics {

  private DecisionMetrics() {}

  /**
   * Counts the verdicts from index {@code from} on (those of this decision; earlier ones were
   * counted at an earlier entry point of the same request), each with the decision's latency.
   */
  static void record(RuleVerdicts verdicts, int from, long decisionNanos) {
    if (verdicts == null) {
      return;
    }
    List<RuleVerdicts.Entry> entries = verdicts.entries();
    for (int i = from, n = entries.size(); i < n; i++) {
      RuleVerdicts.Entry entry = entries.get(i);
      TollgateMetrics.record(entry.rule.name(), entry.verdict.allowed, entry.rule.isShadow(),
          entry.key, entry.verdict.fallback, decisionNanos);
    }
  }
}
