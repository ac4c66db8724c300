package io.tollgate.replay;

import io.tollgate.diagnostics.Version;
import io.tollgate.http.HtmlText;

/**
 * The replay's findings as one self-contained HTML page: inline CSS and inline SVG charts, no
 * script, no font or image from anywhere. Per rule: the figures, a timeline of allowed and
 * would-refuse requests, the keys by requests sent, the limits needed, the top refused keys and
 * the keys that would retry before their Retry-After (retry storms).
 * Every string from the log or the rules file is escaped ({@link Html}).
 */
public final class HtmlReport {

  private static final String CSS =
      "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
          + "margin:24px auto;max-width:1040px;padding:0 12px}"
          + "h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:0 0 6px}h3{font-size:15px;margin:10px 0 4px}"
          + "section.rule{border-top:2px solid #ddd;padding:14px 0 6px;margin-top:18px}"
          + ".meta{color:#666;font-weight:normal;font-size:14px}"
          + ".shadow{background:#fff3cd;border-radius:3px;padding:1px 6px;font-size:12px}"
          + ".warn{color:#8a5a00}"
          + "table{border-collapse:collapse;margin:6px 0 12px}"
          + "td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}"
          + "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
          + "th{border-bottom:1px solid #ccc;font-weight:600}"
          + "code,.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}"
          + "figure{margin:6px 0 12px}figcaption{color:#444;margin-bottom:2px}"
          + "svg.chart{display:block;max-width:100%;height:auto;background:#fff}"
          + "svg .grid{stroke:#e4e4e4;stroke-width:1}"
          + "svg .axis{font:11px system-ui,sans-serif;fill:#555}"
          + "svg .allowed{fill:#4a7ab5}svg .refused{fill:#d9534f}"
          + ".legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}"
          + "ul.notes{padding-left:18px;color:#444}";

  private HtmlReport() {}

  public static String of(ReplayReport report) {
    StringBuilder html = new StringBuilder(64 * 1024);
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>Tollgate replay: ").append(HtmlText.escape(report.rulesSource))
        .append("</title><style>").append(CSS).append("</style></head><body>\n");
    html.append("<h1>What these rules would have done to this traffic</h1>\n<p>Replayed <b>")
        .append(Figures.count(report.requests)).append("</b> requests");
    if (report.requests > 0) {
      html.append(" logged from ").append(Figures.time(report.firstMillis)).append(" to ")
          .append(Figures.time(report.lastMillis)).append(" UTC");
    }
    html.append(" through <code>").append(HtmlText.escape(report.rulesSource))
        .append("</code> with Tollgate ").append(HtmlText.escape(Version.current()))
        .append(". Would refuse <b>").append(Figures.count(report.refusedRequests))
        .append("</b> (").append(Figures.share(share(report.refusedRequests, report.requests)))
        .append(")");
    if (report.shadowRefusedRequests > 0) {
      html.append("; shadow rules would refuse ")
          .append(Figures.count(report.shadowRefusedRequests));
    }
    html.append(".</p>\n<ul class=\"notes\">");
    for (String note : TextReport.notes(report)) {
      html.append("<li>").append(HtmlText.escape(note.trim())).append("</li>");
    }
    html.append("</ul>\n<p class=\"legend\"><span style=\"background:#4a7ab5\"></span>allowed")
        .append("<span style=\"background:#d9534f\"></span>would refuse</p>\n");
    long firstMinute = Math.floorDiv(report.firstMillis, 60_000L);
    long lastMinute = Math.floorDiv(report.lastMillis, 60_000L);
    for (RuleReport rule : report.rules) {
      rule(html, rule, report.requests > 0, firstMinute, lastMinute);
    }
    html.append("</body></html>\n");
    return html.toString();
  }

  private static void rule(
      StringBuilder html, RuleReport r, boolean anyRequests, long firstMinute, long lastMinute) {
    ReplayedRule rule = r.rule;
    int i = rule.index;
    html.append("<section class=\"rule\" id=\"rule-").append(i).append("\"><h2>")
        .append(HtmlText.escape(rule.name())).append(" <span class=\"meta\">")
        .append(HtmlText.escape(rule.algorithm() + " " + rule.limits() + ", key " + rule.key()
            + (rule.counting() == null ? "" : ", " + rule.counting())))
        .append("</span>");
    if (rule.shadow) {
      html.append(" <span class=\"shadow\">shadow: would-refuse only</span>");
    }
    html.append("</h2>\n");
    if (rule.replayability == ReplayedRule.Replayability.NEEDS_ROUTE) {
      html.append("<p class=\"warn\">Not replayable: it matches or keys by a route template,"
          + " which only the application knows, not a log. ")
          .append(HtmlText.escape(r.unreplayableMatches())).append("</p></section>\n");
      return;
    }
    if (r.unfed()) {
      html.append("<p class=\"warn\">").append(HtmlText.escape(sentence(r.unfedLine())))
          .append("</p></section>\n");
      return;
    }
    if (rule.replayability == ReplayedRule.Replayability.INSTANTANEOUS) {
      html.append("<p class=\"warn\">Concurrency: a log has no durations, so each request was"
          + " replayed as instantaneous; these figures say nothing about real concurrency.</p>");
    }
    html.append("<table class=\"figures\">");
    figure(html, "matched", Figures.count(r.matched), "");
    figure(html, "would refuse", Figures.count(r.refused), Figures.share(r.refusedShare()));
    figure(html, "distinct keys", Figures.count(r.distinctKeys),
        r.keysExact ? "" : "estimated; " + Figures.count(r.trackedKeys) + " tracked exactly");
    figure(html, "keys refused", Figures.count(r.keysRefused), r.keysExact ? "" : "of those tracked");
    if (r.uncounted > 0) {
      figure(html, "not counted", Figures.count(r.uncounted),
          "matched, but without the key or allowlisted");
    }
    int busiest = r.timeline.busiest();
    if (busiest >= 0) {
      figure(html, "busiest minute",
          Figures.count(r.timeline.allowed(busiest) + r.timeline.refused(busiest)),
          Figures.minute(r.timeline.minute(busiest)) + " UTC; "
              + Figures.count(r.timeline.refused(busiest)) + " would be refused");
    }
    html.append("</table>\n");
    if (anyRequests) {
      html.append("<figure><figcaption>Requests per ")
          .append(TimelineChart.per(TimelineChart.minutesPerBar(firstMinute, lastMinute)))
          .append(", allowed and would refuse</figcaption>")
          .append(TimelineChart.svg("timeline-" + i, r.timeline, firstMinute, lastMinute))
          .append("</figure>\n");
      html.append("<figure><figcaption>Keys by requests sent (logarithmic scale of keys): all"
          + " keys, and those refused at least once</figcaption>")
          .append(KeysChart.svg("keys-" + i, r.histogram)).append("</figure>\n");
    }
    if (r.countedNothing()) {
      html.append("<p>").append(HtmlText.escape(sentence(r.countedNothingLine()))).append("</p>\n");
    } else if (!r.suggestions.isEmpty() && r.trackedKeys > 0) {
      html.append("<p>Limits needed: the most one key sent within any period"
          + " (<code>sliding-log</code>'s window)")
          .append(rule.counting() == null ? "" : ", " + HtmlText.escape(rule.counting()))
          .append(".</p><table class=\"limits\"><tr><th>limit</th>"
          + "<th class=\"n\">refusing no one</th><th class=\"n\">99th percentile of keys</th>"
          + "<th class=\"n\">99.9th percentile</th><th class=\"n\">keys</th></tr>");
      for (LimitSuggestion s : r.suggestions) {
        if (s.keys == 0) {
          continue;
        }
        html.append("<tr><td>").append(HtmlText.escape(s.budget)).append("</td><td class=\"n\">")
            .append(Figures.count(s.refusingNoOne)).append("</td><td class=\"n\">")
            .append(Figures.count(s.percentile99)).append("</td><td class=\"n\">")
            .append(Figures.count(s.percentile999)).append("</td><td class=\"n\">")
            .append(Figures.count(s.keys)).append("</td></tr>");
      }
      html.append("</table>\n");
    }
    if (!r.topRefused.isEmpty()) {
      html.append("<p>Top refused keys</p><table class=\"keys\"><tr><th>key</th>"
          + "<th class=\"n\">refused</th><th class=\"n\">requests</th>"
          + "<th>first refusal (UTC)</th></tr>");
      for (KeyTally key : r.topRefused) {
        html.append("<tr><td class=\"key\">").append(HtmlText.escape(Figures.key(key.key)))
            .append("</td><td class=\"n\">").append(Figures.count(key.refused))
            .append("</td><td class=\"n\">").append(Figures.count(key.requests))
            .append("</td><td>").append(Figures.time(key.firstRefusalMillis))
            .append("</td></tr>");
      }
      html.append("</table>\n");
    }
    retryStorms(html, r);
    html.append("</section>\n");
  }

  /** The keys that would come back before the Retry-After they were given, and how soon. */
  private static void retryStorms(StringBuilder html, RuleReport r) {
    if (r.earlyRetries == 0) {
      return;
    }
    html.append("<h3>Retry storms</h3><p>")
        .append(HtmlText.escape(sentence(r.earlyRetriesLine()))).append("</p>\n");
    if (r.topEarlyRetries.isEmpty()) {
      return;
    }
    html.append("<table class=\"early-retries\"><tr><th>key</th>"
        + "<th class=\"n\">early retries</th><th class=\"n\">refused</th>"
        + "<th class=\"n\">last told</th><th class=\"n\">came back after</th></tr>");
    for (KeyTally key : r.topEarlyRetries) {
      html.append("<tr><td class=\"key\">").append(HtmlText.escape(Figures.key(key.key)))
          .append("</td><td class=\"n\">").append(Figures.count(key.earlyRetries))
          .append("</td><td class=\"n\">").append(Figures.count(key.refused))
          .append("</td><td class=\"n\">").append(key.lastToldSeconds).append(" s")
          .append("</td><td class=\"n\">").append(RuleReport.seconds(key.lastAfterNanos))
          .append(" s</td></tr>");
    }
    html.append("</table>\n");
  }

  private static void figure(StringBuilder html, String name, String value, String note) {
    html.append("<tr><td>").append(name).append("</td><td class=\"n\">").append(value)
        .append("</td><td>").append(HtmlText.escape(note)).append("</td></tr>");
  }

  /** A line of the text report as a sentence of the page: its first letter in capitals. */
  private static String sentence(String line) {
    return line.isEmpty() ? line : Character.toUpperCase(line.charAt(0)) + line.substring(1);
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }
}
