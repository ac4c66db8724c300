package io.tollgate.diagnostics.metrics;

import io.tollgate.engine.RuleVerdicts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every rule's counters, by rule name, since the agent started. The engine reports each decision
 * once ({@link #record}); JMX and the Prometheus endpoint read from here.
 *
 * <p>A rule's counters are created on its first decision, which is also when its MBean is
 * registered (off the request thread, see {@link JmxExporter}): nothing touches JMX while the
 * application is still starting.
 */
public final class TollgateMetrics {

  /** Bounds the registry should a file cycle through many rule names over the JVM's life. */
  static final int MAX_RULES = 1_000;

  private static final ConcurrentMap<String, RuleMetrics> RULES = new ConcurrentHashMap<>();

  private TollgateMetrics() {}

  /**
   * Counts the verdicts from index {@code from} on (those of this decision; earlier ones were
   * counted at an earlier entry point of the same request), each with the decision's latency.
   */
  public static void record(RuleVerdicts verdicts, int from, long decisionNanos) {
    if (verdicts == null) {
      return;
    }
    List<RuleVerdicts.Entry> entries = verdicts.entries();
    for (int i = from, n = entries.size(); i < n; i++) {
      RuleVerdicts.Entry entry = entries.get(i);
      RuleMetrics metrics = forRule(entry.rule.name());
      if (metrics == null) {
        continue;
      }
      if (entry.verdict.allowed) {
        metrics.allowed();
      } else if (entry.rule.isShadow()) {
        metrics.wouldRefuse(entry.key);
      } else {
        metrics.refused(entry.key);
      }
      if (entry.verdict.fallback) {
        metrics.backendError();
      }
      metrics.decisionTook(decisionNanos);
    }
  }

  /** The counters of {@code rule}, created (and its MBean registered) on first use. */
  static RuleMetrics forRule(String rule) {
    RuleMetrics metrics = RULES.get(rule);
    if (metrics != null) {
      return metrics;
    }
    if (RULES.size() >= MAX_RULES) {
      return null;
    }
    RuleMetrics created = new RuleMetrics(rule);
    metrics = RULES.putIfAbsent(rule, created);
    if (metrics != null) {
      return metrics;
    }
    JmxExporter.registerLater(created);
    return created;
  }

  /** Every rule's counters, by name. */
  public static List<RuleMetrics> all() {
    List<RuleMetrics> all = new ArrayList<>(RULES.values());
    Collections.sort(all, (a, b) -> a.getRule().compareTo(b.getRule()));
    return all;
  }

  /** For unit tests. */
  static void reset() {
    RULES.clear();
  }
}
