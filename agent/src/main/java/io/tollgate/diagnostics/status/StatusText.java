package io.tollgate.diagnostics.status;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code status} for people: a heading, one table row per rule with its rates per second, the
 * leasing rules' table (when a rule leases tokens from Redis), the outbound rules' table and the
 * partner's waits in force (when the file has outbound rules), the top keys, the backend's health
 * and the problems. Columns come from {@link RuleCounters}.
 */
public final class StatusText {

  /** Keys shown per rule and list; the JSON has {@link RuleCounters#TOP_KEYS}. */
  static final int KEYS_SHOWN = 5;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private StatusText() {}

  public static String render(StatusView view) {
    StatusSnapshot now = view.current;
    String nl = System.lineSeparator();
    StringBuilder out = new StringBuilder();
    out.append("Tollgate ").append(now.version).append(" in JVM ").append(now.pid).append(": ")
        .append(now.rulesFile == null ? "no rules file, every request passes"
            : "rules file " + now.rulesFile)
        .append(nl);
    out.append("counts since ").append(TIME.format(Instant.ofEpochMilli(now.agentStartedAtMillis)))
        .append("; per second over the last ")
        .append(view.intervalSeconds() > 0
            ? String.format(Locale.ROOT, "%.1f s", view.intervalSeconds()) : "- (one snapshot)")
        .append(", at ").append(TIME.format(Instant.ofEpochMilli(now.takenAtMillis))).append(nl)
        .append(nl);
    out.append(rulesTable(view));
    if (now.rules.isEmpty()) {
      out.append("(no rules in force)").append(nl);
    }
    if (now.rules.stream().anyMatch(RuleStatus::leases)) {
      out.append(nl).append(LeaseStatusCounters.HEADING).append(':').append(nl)
          .append(leasesTable(view));
    }
    if (!now.outbound.isEmpty()) {
      out.append(nl).append(outboundTable(view));
      out.append(partnerHolds(now));
    }
    for (RuleCounters.KeyList list : RuleCounters.KEY_LISTS) {
      List<String> lines = new ArrayList<>();
      for (RuleStatus rule : now.rules) {
        List<KeyCount> keys = rule.keys(list.name);
        if (keys.isEmpty()) {
          continue;
        }
        List<String> shown = new ArrayList<>();
        for (KeyCount key : keys.subList(0, Math.min(KEYS_SHOWN, keys.size()))) {
          shown.add(key.toString());
        }
        lines.add("  " + rule.name + ": " + String.join(", ", shown));
      }
      if (!lines.isEmpty()) {
        out.append(nl).append(list.heading).append(':').append(nl);
        for (String line : lines) {
          out.append(line).append(nl);
        }
      }
    }
    out.append(nl).append("backend: ").append(backend(view)).append(nl);
    if (now.problems.isEmpty()) {
      out.append("problems: none").append(nl);
    } else {
      out.append("problems:").append(nl);
      for (String problem : now.problems) {
        out.append("  ").append(problem).append(nl);
      }
    }
    return out.toString();
  }

  static String rulesTable(StatusView view) {
    List<String[]> rows = new ArrayList<>();
    List<String> heading = new ArrayList<>(List.of("RULE", "ALGORITHM", "LIMIT", "MODE"));
    for (StatusCounter<?> counter : RuleCounters.COUNTERS) {
      heading.add(counter.heading + " (TOTAL)");
    }
    rows.add(heading.toArray(new String[0]));
    for (RuleStatus rule : view.current.rules) {
      List<String> row = new ArrayList<>(List.of(rule.name, rule.algorithm, rule.limit, rule.mode()));
      for (StatusCounter<?> counter : RuleCounters.COUNTERS) {
        row.add(rate(view.rate(rule, counter.name)) + " (" + rule.counter(counter.name) + ")");
      }
      rows.add(row.toArray(new String[0]));
    }
    return table(rows, 4);
  }

  /**
   * The rules that lease tokens from Redis: one row per rule with its lease size and its leases'
   * rates per second and totals, columns from {@link LeaseStatusCounters}.
   */
  static String leasesTable(StatusView view) {
    List<String[]> rows = new ArrayList<>();
    List<String> heading = new ArrayList<>(List.of("RULE", "LEASE"));
    for (StatusCounter<?> counter : LeaseStatusCounters.COUNTERS) {
      heading.add(counter.heading + " (TOTAL)");
    }
    rows.add(heading.toArray(new String[0]));
    for (RuleStatus rule : view.current.rules) {
      if (!rule.leases()) {
        continue;
      }
      List<String> row = new ArrayList<>(List.of(rule.name, Long.toString(rule.leaseTokens)));
      for (StatusCounter<?> counter : LeaseStatusCounters.COUNTERS) {
        row.add(rate(view.leaseRate(rule, counter.name)) + " ("
            + rule.leaseCounter(counter.name) + ")");
      }
      rows.add(row.toArray(new String[0]));
    }
    return table(rows, 1);
  }

  /**
   * The outbound rules (limits on the app's own calls): one row per rule with its rates per second
   * and totals, columns from {@link OutboundCounters}.
   */
  static String outboundTable(StatusView view) {
    List<String[]> rows = new ArrayList<>();
    List<String> heading =
        new ArrayList<>(List.of("OUTBOUND RULE", "ALGORITHM", "LIMIT", "MODE"));
    for (StatusCounter<?> counter : OutboundCounters.COUNTERS) {
      heading.add(counter.heading + " (TOTAL)");
    }
    rows.add(heading.toArray(new String[0]));
    for (OutboundStatus rule : view.current.outbound) {
      List<String> row =
          new ArrayList<>(List.of(rule.name, rule.algorithm, rule.limit, rule.mode()));
      for (StatusCounter<?> counter : OutboundCounters.COUNTERS) {
        row.add(rate(view.rate(rule, counter.name)) + " (" + rule.counter(counter.name) + ")");
      }
      rows.add(row.toArray(new String[0]));
    }
    return table(rows, 4);
  }

  /** The partner's waits in force, one line each: rule, key, until when, and why. */
  static String partnerHolds(StatusSnapshot now) {
    String nl = System.lineSeparator();
    StringBuilder out = new StringBuilder();
    for (OutboundStatus rule : now.outbound) {
      for (OutboundStatus.Hold hold : rule.holds) {
        long left = Math.max(0, hold.untilMillis - now.takenAtMillis);
        out.append("  ").append(rule.name)
            .append(hold.key.isEmpty() ? "" : " key '" + hold.key + "'")
            .append(": held until ").append(TIME.format(Instant.ofEpochMilli(hold.untilMillis)))
            .append(String.format(Locale.ROOT, " (%.1f s left); ", left / 1000.0))
            .append(hold.answer).append("; learnt by ").append(hold.learntFrom()).append(nl);
      }
    }
    String heading = out.length() == 0 ? "partner holds in force: none" : "partner holds in force:";
    return nl + heading + nl + out;
  }

  /** Rows of cells as columns: the first {@code wordColumns} left, the numbers right. */
  private static String table(List<String[]> rows, int wordColumns) {
    int columns = rows.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        if (c > 0) {
          line.append("  ");
        }
        // Words left, numbers right: the rates line up on their decimal point.
        String cell = row[c];
        String pad = " ".repeat(widths[c] - cell.length());
        line.append(c < wordColumns ? cell + pad : pad + cell);
      }
      out.append(stripTrailing(line.toString())).append(System.lineSeparator());
    }
    return out.toString();
  }

  static String backend(StatusView view) {
    BackendStatus backend = view.current.backend;
    if (!backend.isRedis()) {
      return "local (counts in this JVM's memory)";
    }
    return "redis " + backend.address + ": "
        + (backend.connected ? "connected" : "NOT connected")
        + ", circuit " + backend.circuit.toLowerCase(Locale.ROOT).replace('_', '-')
        + " (opened " + backend.circuitOpenings + " time" + (backend.circuitOpenings == 1 ? "" : "s")
        + "), " + backend.instances + " instance" + (backend.instances == 1 ? "" : "s")
        + " sharing it" + (backend.failing ? ", decisions FAILING now" : "")
        + "; calls not answered " + rate(view.backendRate(BackendStatus.NOT_ANSWERED)) + "/s ("
        + backend.counter(BackendStatus.NOT_ANSWERED) + " in all: on-failure decided)"
        + ", answered late " + rate(view.backendRate(BackendStatus.LATE))
        + "/s (" + backend.counter(BackendStatus.LATE) + " in all: the local share decided)"
        + batching(backend);
  }

  /** How many calls the batched decisions took: fewer than one a decision when batching works. */
  static String batching(BackendStatus backend) {
    long decisions = backend.counter(BackendStatus.BATCHED_DECISIONS);
    if (decisions <= 0) {
      return "";
    }
    long calls = backend.counter(BackendStatus.BATCH_CALLS);
    return String.format(Locale.ROOT, "; %d decisions batched in %d calls (%.2f calls a decision)",
        decisions, calls, (double) calls / decisions);
  }

  static String rate(Double perSecond) {
    return perSecond == null ? "-" : String.format(Locale.ROOT, "%.1f", perSecond);
  }

  private static String stripTrailing(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return s.substring(0, end);
  }
}
