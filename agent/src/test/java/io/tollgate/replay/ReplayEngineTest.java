package io.tollgate.replay;

import static io.tollgate.replay.Replays.replay;
import static io.tollgate.replay.Replays.rule;
import static io.tollgate.replay.Replays.rules;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.replay.log.LoggedRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine's features, replayed: each as the agent would apply it to the logged requests. */
class ReplayEngineTest {

  private static final long T0 = TrafficShapes.T0;

  private static LoggedRequest at(long millis, String ip, String path, String query, String user,
      String... headers) {
    Map<String, String> h = new HashMap<>();
    for (int i = 0; i + 1 < headers.length; i += 2) {
      h.put(headers[i].toLowerCase(java.util.Locale.ROOT), headers[i + 1]);
    }
    return new LoggedRequest(T0 + millis, ip, "GET", path, query, 200, user, h, "test.log", 1);
  }

  private static List<LoggedRequest> times(int n, LoggedRequest request) {
    List<LoggedRequest> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(request);
    }
    return out;
  }

  @Test
  void aRedisBackendIsReplayedLocallyWithoutConnectingAndTheReportSaysSo() throws Exception {
    ReplayReport report = replay(rules(
        "backend: redis",
        "redis: {uri: 'redis://127.0.0.1:1'}",
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, limit: 5, period: 1m}"),
        times(8, at(0, "203.0.113.1", "/a", null, null)));
    assertEquals(3, rule(report, "r").refused);
    assertTrue(TextReport.of(report).contains("says backend: redis; replayed as backend: local"),
        TextReport.of(report));
  }

  @Test
  void aRuleOnARouteIsNotReplayedButItsRequestsAreCounted() throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: orders, match: {path: /api/**, route: '/api/orders/{id}'}, limit: 1, period: 1m}",
        "  - {name: all, match: {path: /**}, limit: 100, period: 1m}"),
        times(3, at(0, "203.0.113.1", "/api/orders/7", null, null)));
    RuleReport orders = rule(report, "orders");
    assertEquals(0, orders.matched);
    assertEquals(3, orders.unreplayable);
    assertTrue(TextReport.of(report).contains("not replayable"), TextReport.of(report));
    assertEquals(3, rule(report, "all").matched);
  }

  /** The logged status settles count-when as the live response's does: successes never count. */
  @Test
  void countWhenCountsOnlyTheLoggedStatusesItLists() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      requests.add(withStatus(at(i, "203.0.113.1", "/login", null, null), 200));
    }
    for (int i = 0; i < 5; i++) {
      requests.add(withStatus(at(100 + i, "203.0.113.1", "/login", null, null), 401));
    }
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: failures, match: {path: /login}, key: ip, limit: 3, period: 1m,",
        "     count-when: [401]}"),
        requests);
    assertEquals(15, rule(report, "failures").matched);
    assertEquals(2, rule(report, "failures").refused, "the 4th and 5th failures");
  }

  private static LoggedRequest withStatus(LoggedRequest r, int status) {
    return new LoggedRequest(r.epochMillis, r.clientAddress, r.method, r.path, r.query, status,
        r.user, r.headers, r.source, r.lineNumber);
  }

  @Test
  void aShadowRuleReportsWhatItWouldRefuseWithoutRefusing() throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: watch, match: {path: /**}, limit: 1, period: 1m, mode: shadow}",
        "  - {name: enforce, match: {path: /**}, limit: 2, period: 1m}"),
        times(4, at(0, "203.0.113.1", "/a", null, null)));
    assertEquals(3, rule(report, "watch").refused);
    assertEquals(2, rule(report, "enforce").refused);
    assertEquals(2, report.refusedRequests);
    assertEquals(3, report.shadowRefusedRequests);
  }

  @Test
  void trustedProxiesTakeTheClientFromALoggedForwardedFor() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      requests.add(at(i, "10.0.0.1", "/a", null, null,
          "X-Forwarded-For", "6.6.6.6, 198.51.100." + (7 + i % 2)));
    }
    ReplayReport report = replay(rules(
        "client-ip: {trusted-proxies: 1}",
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, limit: 1, period: 1m}"),
        requests);
    RuleReport r = rule(report, "r");
    assertEquals(2, r.distinctKeys);
    assertEquals(2, r.refused);
    assertEquals("198.51.100.7", r.topRefused.get(0).key);
    assertEquals("198.51.100.8", r.topRefused.get(1).key);
  }

  @Test
  void aConcurrencyRuleSeesEachRequestAsInstantaneous() throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: c, match: {path: /**}, algorithm: concurrency, limit: 1, period: 1s}"),
        times(10, at(0, "203.0.113.1", "/a", null, null)));
    RuleReport c = rule(report, "c");
    assertEquals(10, c.matched);
    assertEquals(0, c.refused);
    assertTrue(TextReport.of(report).contains("instantaneous"), TextReport.of(report));
  }

  @Test
  void theClockNeverGoesBack() throws Exception {
    // fixed windows of a minute: the request logged at 0:59 after one at 1:00 is decided at 1:00
    List<LoggedRequest> requests = new ArrayList<>();
    requests.add(at(60_000, "203.0.113.1", "/a", null, null));
    requests.add(at(59_000, "203.0.113.1", "/a", null, null));
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: r, match: {path: /**}, algorithm: fixed-window, limit: 1, period: 1m}"),
        requests);
    assertEquals(1, rule(report, "r").refused);
    assertEquals(1, report.stepsBack);
    assertEquals(1000, report.longestStepBackMillis);
    assertEquals(T0 + 59_000, report.firstMillis);
  }

  @Test
  void aPenaltyBoxKeepsRefusingAfterTheLimitWouldAllowAgain() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    for (int s = 0; s < 10; s++) {
      requests.add(at(s * 1000L, "203.0.113.1", "/login", null, null));
    }
    // 1 a second; 3 in the first second, then one a second: boxed after 2 refusals for 1 minute
    requests.add(0, at(0, "203.0.113.1", "/login", null, null));
    requests.add(0, at(0, "203.0.113.1", "/login", null, null));
    ReplayReport report = replay(rules(
        "rules:",
        "  - name: login",
        "    match: {path: /login}",
        "    algorithm: fixed-window",
        "    limit: 1",
        "    period: 1s",
        "    penalty: {after: 2, within: 1m, box-for: 1m}"),
        requests);
    // second 0: 1 allowed, 2 refused (boxed); seconds 1..9: all refused in the box
    assertEquals(11, rule(report, "login").refused);
  }

  @Test
  void plansAndSeveralLimitsCountAsTheAgentCountsThem() throws Exception {
    List<LoggedRequest> requests =
        times(25, at(0, "203.0.113.1", "/api/x", null, null, "X-Api-Key", "k1", "X-Plan", "pro"));
    requests = new ArrayList<>(requests);
    requests.addAll(times(3, at(1000, "203.0.113.2", "/api/x", null, null, "X-Api-Key", "k2")));
    ReplayReport report = replay(rules(
        "rules:",
        "  - name: api",
        "    match: {path: /api/**}",
        "    key: header:X-Api-Key",
        "    plans:",
        "      header: X-Plan",
        "      default: free",
        "      limits:",
        "        free: {limit: 2, period: 1h}",
        "        pro: [{limit: 20, period: 1s}, {limit: 10000, period: 1h}]"),
        requests);
    RuleReport api = rule(report, "api");
    assertEquals(28, api.matched);
    assertEquals(5 + 1, api.refused);
    assertEquals(3, api.suggestions.size());
    assertEquals("free: 2/1h", api.suggestions.get(0).budget);
    assertEquals(3, api.suggestions.get(0).refusingNoOne);
    assertEquals("pro: 20/1s", api.suggestions.get(1).budget);
    assertEquals(25, api.suggestions.get(1).refusingNoOne);
    assertEquals(25, api.suggestions.get(2).refusingNoOne);
  }

  @Test
  void costsCountInUnitsAndACostHeaderInTheLogCorrectsThem() throws Exception {
    ReplayReport costs = replay(rules(
        "rules:",
        "  - {name: r, match: {path: /**}, limit: 100, period: 1m, cost: {default: 1, /export: 50}}"),
        times(3, at(0, "203.0.113.1", "/export", null, null)));
    assertEquals(1, rule(costs, "r").refused);
    assertEquals(150, rule(costs, "r").suggestions.get(0).refusingNoOne);

    ReplayReport corrected = replay(rules(
        "rules:",
        "  - name: r",
        "    match: {path: /**}",
        "    algorithm: fixed-window",
        "    limit: 10",
        "    period: 1m",
        "    cost-header: X-Tollgate-Cost"),
        times(2, at(0, "203.0.113.1", "/a", null, null, "X-Tollgate-Cost", "10")));
    assertEquals(1, rule(corrected, "r").refused);
  }

  @Test
  void keysFromTheQueryAndTheUserAndRequestsWithoutTheKey() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    requests.add(at(0, "203.0.113.1", "/search", "q=x&user=al%20ice", "bob"));
    requests.add(at(0, "203.0.113.2", "/search", "user=al+ice", "bob"));
    requests.add(at(0, "203.0.113.3", "/search", "q=y", null));
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: by-param, match: {path: /search}, key: 'param:user', limit: 1, period: 1m}",
        "  - {name: by-user, match: {path: /search}, key: principal, limit: 1, period: 1m}"),
        requests);
    RuleReport param = rule(report, "by-param");
    assertEquals(2, param.matched);
    assertEquals(1, param.uncounted);
    assertEquals("al ice", param.topRefused.get(0).key);
    RuleReport user = rule(report, "by-user");
    assertEquals(2, user.matched);
    assertEquals("bob", user.topRefused.get(0).key);
    assertTrue(TextReport.of(report).contains("without the key or allowlisted"));
  }

  @Test
  void keysBeyondThoseTrackedAreEstimated() throws Exception {
    Replay replay = Replay.of(rules(
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, limit: 1, period: 1m}"), 100);
    for (int i = 0; i < 5000; i++) {
      replay.replay(at(i, "10.0." + (i / 256) + "." + (i % 256), "/a", null, null));
    }
    RuleReport r = rule(replay.report(5, null), "r");
    assertEquals(5000, r.matched);
    assertEquals(100, r.trackedKeys);
    assertTrue(!r.keysExact);
    assertTrue(Math.abs(r.distinctKeys - 5000) < 5000 * 0.05, "estimate " + r.distinctKeys);
  }

  @Test
  void theTopRefusedKeysComeMostRefusedFirstWithTheirFirstRefusal() throws Exception {
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: r, match: {path: /**}, algorithm: fixed-window, key: ip, limit: 2, period: 1m}"),
        TrafficShapes.traffic()
            .steady("192.0.2.1", "/a", 10)
            .steady("192.0.2.2", "/a", 5)
            .requests());
    RuleReport r = rule(report, "r");
    assertEquals(2, r.topRefused.size());
    assertEquals("192.0.2.1", r.topRefused.get(0).key);
    assertEquals(8, r.topRefused.get(0).refused);
    assertEquals(T0 + 2000, r.topRefused.get(0).firstRefusalMillis);
    assertEquals(3, r.topRefused.get(1).refused);
    int busiest = r.timeline.busiest();
    assertEquals(15, r.timeline.allowed(busiest) + r.timeline.refused(busiest));
  }

  @Test
  void aReplayStartsNoThreadWhateverTheRulesFileSays() throws Exception {
    java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
    Replay replay = Replay.of(rules(
        "backend: redis",
        "redis: {uri: 'redis://127.0.0.1:1', refusal-cache: true}",
        "rules:",
        "  - {name: a, match: {path: /**}, key: ip, limit: 5, period: 1m,",
        "     penalty: {after: 2, within: 1m, box-for: 1m}}",
        "  - {name: b, match: {path: /**}, key: ip, limits: [{limit: 5, period: 1s}, {limit: 50, period: 1h}]}",
        "  - {name: c, match: {path: /**}, algorithm: concurrency, limit: 2, period: 1s}"), 1000);
    for (int i = 0; i < 20_000; i++) {
      replay.replay(at(i * 10L, "10.0." + (i % 50) + ".1", "/a", null, null));
    }
    replay.report(10, null);
    java.util.Set<String> started = new java.util.TreeSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (!before.contains(t) && t.isAlive()) {
        started.add(t.getName());
      }
    }
    assertEquals(java.util.Collections.emptySet(), started);
  }

  @Test
  void oddClientFieldsAreDecidedAsTheAgentWouldDecideThem() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    for (String client : new String[] {null, "-", "", "host.example.com", "::1", "[2001:db8::1]",
        "203.0.113.1:5555", "unix:", "300.1.1.1"}) {
      requests.add(at(0, client, "/a", null, null, "X-Forwarded-For", "not an address"));
      requests.add(new LoggedRequest(T0, client, "GET", "", null, -1, "", null, "t.log", 2));
    }
    ReplayReport report = replay(rules(
        "client-ip: {trusted-proxies: 1}",
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, limit: 1, period: 1m}",
        "  - {name: g, match: {path: /**}, key: [ip, principal], key-fallback: global, limit: 1, period: 1m}"),
        requests);
    assertEquals(18, rule(report, "g").matched + rule(report, "g").uncounted);
  }

  @Test
  void aRequestTheEngineFailsOnIsCountedAndTheReplayGoesOn() throws Exception {
    List<LoggedRequest> requests = new ArrayList<>();
    requests.add(new LoggedRequest(T0, "203.0.113.1", null, "/a", null, 200, null, null, "t.log", 7));
    requests.add(at(1, "203.0.113.1", "/a", null, null));
    ReplayReport report = replay(rules(
        "rules:",
        "  - {name: r, match: {path: /**}, key: ip, limit: 1, period: 1m}"),
        requests);
    assertEquals(1, rule(report, "r").matched);
    assertTrue(TextReport.of(report).contains("The engine failed on 1 request (the agent would have"
        + " let it through); the first: t.log: line 7: java.lang.NullPointerException"),
        TextReport.of(report));
  }
}
