package io.tollgate.replay;

import static io.tollgate.replay.Replays.replay;
import static io.tollgate.replay.Replays.rule;
import static io.tollgate.replay.Replays.rules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.log.LoggedRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The replay's figures follow the rule: its limits needed count what it counts ({@code
 * count-when}), its heading says so, and a rule the log cannot feed gets one line saying why.
 */
class ReplayFollowsTheRuleTest {

  /** One client's minute at a login form: 10 successes, 5 failed logins, 3 server errors. */
  private static List<LoggedRequest> loginMinute() {
    List<LoggedRequest> out = new ArrayList<>();
    int line = 0;
    for (int status : new int[] {200, 401, 200, 500, 200, 401, 200, 200, 401, 500,
                                 200, 401, 200, 500, 200, 200, 401, 302}) {
      out.add(request(line * 1_000L, "/login", status, Collections.<String, String>emptyMap(), ++line));
    }
    return out;
  }

  private static LoggedRequest request(long millis, String path, int status,
      Map<String, String> headers, int line) {
    return new LoggedRequest(TrafficShapes.T0 + millis, "203.0.113.1", "GET", path, null, status,
        null, headers, "access.log", line);
  }

  /** 18 requests: 200 x 9, 302 x 1, 401 x 5, 500 x 3. */
  @ParameterizedTest(name = "count-when {0}: limits needed {1}, heading ''{2}''")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      // count-when  | refusing no one | the heading names
      "-             | 18              | -",
      "[401]         | 5               | counting 401 responses",
      "[401, 500]    | 8               | counting 401, 500 responses",
      "[4xx]         | 5               | counting 4xx responses",
      "[failure]     | 8               | counting failed (4xx, 5xx) responses",
      "[2xx, 3xx]    | 10              | counting 2xx, 3xx responses",
  })
  void limitsNeededCountWhatTheRuleCounts(String countWhen, long needed, String heading)
      throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: logins, match: {path: /login}, key: ip, limit: 100, period: 1m"
            + (countWhen == null ? "" : ", count-when: " + countWhen) + "}"),
        loginMinute());
    RuleReport logins = rule(report, "logins");
    assertEquals(18, logins.matched, "every matched request is still shown as matched");
    assertEquals(needed, logins.suggestions.get(0).refusingNoOne);
    String text = TextReport.of(report);
    String html = HtmlReport.of(report);
    String ruleLine = text.lines().filter(l -> l.startsWith("rule logins")).findFirst().get();
    if (heading == null) {
      assertFalse(ruleLine.contains("counting"), ruleLine);
      assertTrue(text.contains("limits needed (the most one key sent within any period):"), text);
    } else {
      assertTrue(ruleLine.endsWith(", " + heading), ruleLine);
      assertTrue(text.contains("limits needed (the most one key sent within any period, "
          + heading + "):"), text);
      assertTrue(html.contains(", key ip, " + heading + "</span>"), html);
      assertTrue(html.contains("window), " + heading + ".</p>"), html);
    }
  }

  /** The case: a failed-login rule over a minute of successful logins needs no limit. */
  @ParameterizedTest(name = "count-when {0} over successes only")
  @CsvSource({"'[401]'", "'[failure]'", "'[5xx]'"})
  void aRuleThatCountedNothingSaysSoInsteadOfAnEmptyTable(String countWhen) throws Exception {
    List<LoggedRequest> successes = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      successes.add(request(i * 1_000L, "/login", 200, Collections.<String, String>emptyMap(), i + 1));
    }
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: failed-logins, match: {path: /login}, key: ip, limit: 5, period: 1m,"
            + " count-when: " + countWhen + "}"),
        successes);
    RuleReport r = rule(report, "failed-logins");
    assertEquals(0, r.refused);
    assertTrue(r.countedNothing());
    String text = TextReport.of(report);
    assertTrue(text.contains("  limits needed: none; no matched request was logged with a status"
        + " the rule counts (counting "), text);
    assertFalse(text.contains("refusing no one"), text);
    String html = HtmlReport.of(report);
    assertFalse(html.contains("<table class=\"limits\">"), html);
    assertTrue(html.contains("<p>Limits needed: none; no matched request"), html);
  }

  /** A key as a YAML flow value: a list as written, a part quoted for its colon. */
  private static String yaml(String key) {
    return key.startsWith("[") ? key : "'" + key + "'";
  }

  @ParameterizedTest(name = "key {0}: {1}")
  @CsvSource(delimiter = '|', value = {
      // key                  | the reason given
      "'form:username'        | an access log records no request bodies, so no form field username",
      "'header:X-Api-Key'     | the log recorded no X-Api-Key header",
      "'cookie:session'       | the log recorded no Cookie header with session",
      "principal              | the log recorded no user",
      "'query:account'        | no logged query string had account",
      "'[ip, \"header:X-Tenant\"]' | the log recorded no X-Tenant header",
  })
  void aRuleTheLogCannotFeedGetsOneLineSayingWhy(String key, String reason) throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: by-key, match: {path: /login}, key: " + yaml(key) + ", limit: 5, period: 1m}",
        "  - {name: by-ip, match: {path: /**}, key: ip, limit: 100, period: 1m}"),
        loginMinute());
    RuleReport r = rule(report, "by-key");
    assertTrue(r.unfed());
    String line = "not fed by this log: none of the 18 requests it matched had its key ("
        + r.rule.key() + "): " + reason + ".";
    String text = TextReport.of(report);
    String block = text.substring(text.indexOf("rule by-key"), text.indexOf("rule by-ip"));
    assertEquals(2, block.trim().split("\n").length, "the heading and one line: " + block);
    assertTrue(block.contains("  " + line + System.lineSeparator()), block);

    String html = HtmlReport.of(report);
    String section = html.substring(html.indexOf("id=\"rule-0\""), html.indexOf("id=\"rule-1\""));
    assertTrue(section.contains("<p class=\"warn\">Not" + io.tollgate.http.HtmlText.escape(line.substring(3))
        + "</p></section>"), section);
    assertFalse(section.toLowerCase(Locale.ROOT).contains("<svg"), section);
    assertFalse(section.contains("<table"), section);
    // the rule the log feeds keeps its figures and charts
    assertFalse(rule(report, "by-ip").unfed());
    assertTrue(html.substring(html.indexOf("id=\"rule-1\"")).contains("<svg"));
  }

  @ParameterizedTest(name = "key {0} with the value logged is fed")
  @CsvSource({"'header:X-Api-Key'", "'cookie:session'"})
  void aRuleWhoseKeyTheLogCarriesIsReplayedAsUsual(String key) throws Exception {
    Map<String, String> headers = new HashMap<>();
    headers.put("x-api-key", "k1");
    headers.put("cookie", "session=s1");
    List<LoggedRequest> requests = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      requests.add(request(i, "/login", 200, headers, i + 1));
    }
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: by-key, match: {path: /login}, key: " + yaml(key) + ", limit: 5, period: 1m}"),
        requests);
    RuleReport r = rule(report, "by-key");
    assertFalse(r.unfed());
    assertEquals(6, r.matched);
    assertEquals(1, r.refused);
    assertFalse(TextReport.of(report).contains("Not fed"));
  }
}
