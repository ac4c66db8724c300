package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every outbound rule's counters, by rule name, since the agent started: the outbound engine
 * counts, JMX and the Prometheus endpoint read. Kept apart from the inbound rules' counters: an
 * outbound rule may share a name with an inbound one, and its counts mean other things.
 */
public final class OutboundMetrics {

  private static final ConcurrentMap<String, OutboundRuleMetrics> RULES = new ConcurrentHashMap<>();

  private OutboundMetrics() {}

  /** The counters of {@code rule}, created (and its MBean registered, later) on first use. */
  public static OutboundRuleMetrics forRule(String rule) {
    OutboundRuleMetrics metrics = RULES.get(rule);
    if (metrics != null) {
      return metrics;
    }
    if (RULES.size() >= TollgateMetrics.MAX_RULES) {
      return new OutboundRuleMetrics(rule); // counted, not exported: the registry is bounded
    }
    OutboundRuleMetrics created = new OutboundRuleMetrics(rule);
    metrics = RULES.putIfAbsent(rule, created);
    if (metrics != null) {
      return metrics;
    }
    JmxExporter.registerLater(created);
    return created;
  }

  /** Every outbound rule's counters, by name. */
  public static List<OutboundRuleMetrics> all() {
    List<OutboundRuleMetrics> all = new ArrayList<>(RULES.values());
    Collections.sort(all, (a, b) -> a.getRule().compareTo(b.getRule()));
    return all;
  }

  /** The Prometheus exposition text of these counters; empty when there are none. */
  static String render(List<OutboundRuleMetrics> rules) {
    if (rules.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(512);
    String[][] counters = {
      {"tollgate_outbound_sent_total", "Calls an outbound rule let out, at once or paced."},
      {"tollgate_outbound_paced_total", "Calls that waited their turn before going out."},
      {"tollgate_outbound_waited_seconds_total", "Time calls waited for their turn, in all."},
      {"tollgate_outbound_failed_fast_total",
          "Calls failed fast: no room within the rule's wait, or on-limit: fail."},
      {"tollgate_outbound_partner_429_total", "The partner's 429 answers to matched calls."},
      {"tollgate_outbound_would_limit_total",
          "Calls a shadow-mode outbound rule would have paced or failed (they went out)."},
    };
    for (int c = 0; c < counters.length; c++) {
      out.append("# HELP ").append(counters[c][0]).append(' ').append(counters[c][1]).append('\n');
      out.append("# TYPE ").append(counters[c][0]).append(" counter\n");
      for (OutboundRuleMetrics rule : rules) {
        out.append(counters[c][0]).append("{rule=\"")
            .append(PrometheusExporter.escape(rule.getRule())).append("\"} ")
            .append(value(rule, c)).append('\n');
      }
    }
    return out.toString();
  }

  private static String value(OutboundRuleMetrics rule, int which) {
    switch (which) {
      case 0:
        return Long.toString(rule.getSent());
      case 1:
        return Long.toString(rule.getPaced());
      case 2:
        return String.format(Locale.ROOT, "%.9f", rule.getWaitedNanos() / 1e9);
      case 3:
        return Long.toString(rule.getFailedFast());
      case 4:
        return Long.toString(rule.getPartner429s());
      default:
        return Long.toString(rule.getWouldLimit());
    }
  }
}
