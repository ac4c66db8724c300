package io.tollgate.replay;

import io.tollgate.config.Durations;
import io.tollgate.replay.log.UnparsedLines;
import java.util.ArrayList;
import java.util.List;

/** The replay's findings as plain text for a terminal: a summary, then one block per rule. */
public final class TextReport {

  private static final String NL = System.lineSeparator();

  private TextReport() {}

  public static String of(ReplayReport report) {
    StringBuilder out = new StringBuilder();
    out.append("Replayed ").append(Figures.count(report.requests)).append(" requests");
    if (report.requests > 0) {
      out.append(" logged from ").append(Figures.time(report.firstMillis)).append(" to ")
          .append(Figures.time(report.lastMillis)).append(" UTC");
    }
    out.append(" through ").append(report.rulesSource).append('.').append(NL);
    for (String note : notes(report)) {
      out.append(note).append(NL);
    }
    out.append("Would refuse ").append(Figures.count(report.refusedRequests)).append(" requests (")
        .append(Figures.share(share(report.refusedRequests, report.requests))).append(")");
    if (report.shadowRefusedRequests > 0) {
      out.append("; shadow rules would refuse ")
          .append(Figures.count(report.shadowRefusedRequests));
    }
    out.append('.').append(NL);
    for (RuleReport rule : report.rules) {
      out.append(NL);
      rule(out, rule);
    }
    return out.toString();
  }

  /** What the reader should know before the figures: semantics, unread lines, time steps. */
  static List<String> notes(ReplayReport report) {
    List<String> notes = new ArrayList<>();
    notes.add(report.semanticsNote());
    notes.addAll(report.readerNotes);
    UnparsedLines unparsed = report.unparsed;
    if (unparsed.count() > 0) {
      notes.add("Could not read " + Figures.count(unparsed.count()) + " line"
          + (unparsed.count() == 1 ? "" : "s") + " (not replayed); the first:");
      for (UnparsedLines.Example example : unparsed.examples()) {
        notes.add("  " + printable(example.source) + ": line " + example.lineNumber + ": "
            + example.reason + ": " + printable(example.text));
      }
    }
    if (report.stepsBack > 0) {
      notes.add(Figures.count(report.stepsBack) + " request" + (report.stepsBack == 1 ? " was" : "s were")
          + " logged earlier than one before (by up to "
          + Durations.format(report.longestStepBackMillis * 1_000_000L)
          + "); decided at the latest time seen, as the clock never goes back.");
    }
    return notes;
  }

  private static void rule(StringBuilder out, RuleReport r) {
    ReplayedRule rule = r.rule;
    out.append("rule ").append(Figures.key(rule.name())).append(": ").append(rule.algorithm())
        .append(' ').append(rule.limits()).append(", key ").append(rule.key());
    if (rule.counting() != null) {
      out.append(", ").append(rule.counting());
    }
    if (rule.shadow) {
      out.append(" (shadow: would-refuse only)");
    }
    out.append(NL);
    if (rule.replayability == ReplayedRule.Replayability.NEEDS_ROUTE) {
      out.append("  not replayable: it matches or keys by a route template, which only the"
          + " application knows, not a log.").append(NL);
      out.append("  ").append(r.unreplayableMatches()).append(NL);
      return;
    }
    if (r.unfed()) {
      out.append("  ").append(r.unfedLine()).append(NL);
      return;
    }
    if (rule.replayability == ReplayedRule.Replayability.INSTANTANEOUS) {
      out.append("  concurrency: a log has no durations, so each request was replayed as"
          + " instantaneous; this rule's figures say nothing about real concurrency.").append(NL);
    }
    TextTable figures = new TextTable("lrl");
    figures.row("matched", Figures.count(r.matched));
    figures.row("would refuse", Figures.count(r.refused), "(" + Figures.share(r.refusedShare()) + ")");
    figures.row("distinct keys", Figures.count(r.distinctKeys),
        r.keysExact ? "" : "(estimated; " + Figures.count(r.trackedKeys) + " tracked exactly)");
    figures.row("keys refused", Figures.count(r.keysRefused), r.keysExact ? "" : "(of those tracked)");
    if (r.uncounted > 0) {
      figures.row("not counted", Figures.count(r.uncounted),
          "(matched, but without the key or allowlisted)");
    }
    int busiest = r.timeline.busiest();
    if (busiest >= 0) {
      figures.row("busiest minute",
          Figures.count(r.timeline.allowed(busiest) + r.timeline.refused(busiest)),
          "(" + Figures.minute(r.timeline.minute(busiest)) + " UTC; "
              + Figures.count(r.timeline.refused(busiest)) + " would be refused)");
    }
    out.append(figures.format("  "));
    if (r.countedNothing()) {
      out.append("  ").append(r.countedNothingLine()).append(NL);
    } else if (!r.suggestions.isEmpty() && r.trackedKeys > 0) {
      out.append("  limits needed (the most one key sent within any period")
          .append(rule.counting() == null ? "" : ", " + rule.counting()).append("):").append(NL);
      TextTable limits = new TextTable("lrrrrr",
          "limit", "refusing no one", "99th pct of keys", "99.9th pct", "keys", "");
      for (LimitSuggestion s : r.suggestions) {
        if (s.keys == 0) {
          continue;
        }
        limits.row(s.budget, Figures.count(s.refusingNoOne), Figures.count(s.percentile99),
            Figures.count(s.percentile999), Figures.count(s.keys));
      }
      out.append(limits.format("    "));
    }
    if (!r.topRefused.isEmpty()) {
      out.append("  top refused keys:").append(NL);
      TextTable keys = new TextTable("lrrl", "key", "refused", "requests", "first refusal (UTC)");
      for (KeyTally key : r.topRefused) {
        keys.row(Figures.key(key.key), Figures.count(key.refused), Figures.count(key.requests),
            Figures.time(key.firstRefusalMillis));
      }
      out.append(keys.format("    "));
    }
    retryStorms(out, r);
  }

  /**
   * The keys that would come back before the {@code Retry-After} they were given: the clients of
   * the log that would retry in a loop against this rule.
   */
  private static void retryStorms(StringBuilder out, RuleReport r) {
    if (r.earlyRetries == 0) {
      return;
    }
    out.append("  retry storms: ").append(r.earlyRetriesLine()).append(NL);
    if (r.topEarlyRetries.isEmpty()) {
      return;
    }
    TextTable keys = new TextTable("lrrrr",
        "key", "early retries", "refused", "last told", "came back after");
    for (KeyTally key : r.topEarlyRetries) {
      keys.row(Figures.key(key.key), Figures.count(key.earlyRetries), Figures.count(key.refused),
          key.lastToldSeconds + " s", RuleReport.seconds(key.lastAfterNanos) + " s");
    }
    out.append(keys.format("    "));
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }

  private static String printable(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      out.append(c >= 0x20 && c != 0x7f ? c : '?');
    }
    return out.toString();
  }
}
