package io.tollgate.replay;

import static io.tollgate.replay.Replays.replay;
import static io.tollgate.replay.Replays.rule;
import static io.tollgate.replay.Replays.rules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.log.LoggedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Retry storms found in a log: a request of a key that the replayed rule refused, refused again
 * before the {@code Retry-After} the rule gave it had elapsed, is an early retry, as the agent
 * counts it in {@code tollgate_early_retries_total}.
 */
class ReplayRetryStormsTest {

  private static final long T0 = TrafficShapes.T0;

  private static List<LoggedRequest> at(String ip, String secondsApart) {
    List<LoggedRequest> out = new ArrayList<>();
    for (String t : secondsApart.trim().split("\\s+")) {
      long millis = Math.round(Double.parseDouble(t) * 1000);
      out.add(new LoggedRequest(T0 + millis, ip, "GET", "/api/orders", null, 200, null,
          java.util.Collections.emptyMap(), "test.log", 1));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}: requests at {1} s")
  @CsvSource(delimiter = '|', value = {
      // rule                                    | at (s)                  | refused | early | told | after
      "limit: 1, period: 1m                      | 0 1 2 3                 | 3       | 2     | 58   | 1.0",
      "limit: 1, period: 1m                      | 0 1 61                  | 1       | 0     | -    | -",
      "limit: 1, period: 1m                      | 0 0.1 0.3               | 2       | 1     | 60   | 0.2",
      "algorithm: token-bucket, limit: 1, period: 10s | 0 1 6 11           | 2       | 1     | 9    | 5.0",
      "algorithm: gcra, limit: 1, period: 2s     | 0 0.1 1 3               | 2       | 1     | 2    | 0.9",
      "limit: 1, period: 1m, mode: shadow        | 0 1 2                   | 2       | 1     | 59   | 1.0",
  })
  void aKeyRefusedAgainBeforeItsRetryAfterIsAnEarlyRetry(
      String rule, String at, long refused, long early, String told, String after)
      throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: api, match: {path: /api/**}, key: ip, " + rule + "}"),
        at("203.0.113.7", at));

    RuleReport api = rule(report, "api");
    assertEquals(refused, api.refused, "refused");
    assertEquals(early, api.earlyRetries, "early retries");
    assertEquals(early == 0 ? 0 : 1, api.topEarlyRetries.size());
    if (early > 0) {
      KeyTally key = api.topEarlyRetries.get(0);
      assertEquals("203.0.113.7", key.key);
      assertEquals(early, key.earlyRetries);
      assertEquals(Long.parseLong(told), key.lastToldSeconds, "told");
      assertEquals(after, RuleReport.seconds(key.lastAfterNanos), "came back after");
    }
  }

  @Test
  void theReportsListTheKeysThatRetryEarlyMostOften() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    // .1 retries every second, .2 every 20 s, .3 waits as told
    for (int s = 0; s < 60; s++) {
      requests.addAll(at("198.51.100.1", Integer.toString(s)));
      if (s % 20 == 0 || s == 1) {
        requests.addAll(at("198.51.100.2", Integer.toString(s)));
      }
      if (s == 0 || s == 1) {
        requests.addAll(at("198.51.100.3", Integer.toString(s)));
      }
    }
    requests.sort((a, b) -> Long.compare(a.epochMillis, b.epochMillis));
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: api, match: {path: /api/**}, key: ip, limit: 1, period: 1m}"),
        requests);

    RuleReport api = rule(report, "api");
    assertEquals(58 + 2, api.earlyRetries);
    assertEquals(List.of("198.51.100.1=58", "198.51.100.2=2"), api.topEarlyRetries.stream()
        .map(k -> k.key + "=" + k.earlyRetries).collect(Collectors.toList()));

    String text = TextReport.of(report);
    assertTrue(text.contains("  retry storms: 60 requests were refused again before the"
        + " Retry-After their key was last given (early retries); the agent counts them in"
        + " tollgate_early_retries_total."), text);
    assertTrue(text.matches("(?s).*    198\\.51\\.100\\.1 +58 +59 +2 s +1\\.0 s.*"), text);
    String html = HtmlReport.of(report);
    assertTrue(html.contains("<h3>Retry storms</h3><p>60 requests were refused again"), html);
    assertTrue(html.contains("<td class=\"key\">198.51.100.1</td><td class=\"n\">58</td>"), html);
  }

  @Test
  void aRuleWithNoEarlyRetryHasNoSection() throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: api, match: {path: /api/**}, key: ip, limit: 1, period: 1m}"),
        at("203.0.113.7", "0 1 61 122"));
    assertEquals(0, rule(report, "api").earlyRetries);
    assertFalse(TextReport.of(report).contains("retry storms"), TextReport.of(report));
    assertFalse(HtmlReport.of(report).contains("Retry storms"));
  }
}
