package io.tollgate.diagnostics.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code status} prints from two snapshots of one agent: the rates are the difference over
 * the interval, the JSON carries what the agent wrote plus the rates, the text is one row a rule.
 */
class StatusRenderingTest {

  private static final long SECOND = 1_000_000_000L;

  static RuleStatus rule(String name, String algorithm, String limit, boolean shadow,
      long allowed, long refused, long wouldRefuse, long onFailure, KeyCount... keys) {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("allowed", allowed);
    counters.put("refused", refused);
    counters.put("wouldRefuse", wouldRefuse);
    counters.put("onFailure", onFailure);
    return new RuleStatus(name, algorithm, limit, shadow, counters,
        Map.of("refused", List.of(keys)));
  }

  /** {@code rule} with {@code earlyRetries} and its early-retrying keys. */
  static RuleStatus withEarlyRetries(RuleStatus rule, long earlyRetries, KeyCount... keys) {
    Map<String, Long> counters = new LinkedHashMap<>(rule.counters);
    counters.put("earlyRetries", earlyRetries);
    Map<String, List<KeyCount>> lists = new LinkedHashMap<>(rule.keys);
    lists.put("earlyRetries", List.of(keys));
    return new RuleStatus(rule.name, rule.algorithm, rule.limit, rule.shadow, counters, lists);
  }

  static StatusSnapshot snapshot(long atNanos, List<String> problems, BackendStatus backend,
      RuleStatus... rules) {
    return new StatusSnapshot("1.2.3", 4242, atNanos, 1_796_460_000_000L + atNanos / 1_000_000,
        1_796_460_000_000L, "/etc/rules.yaml", problems, List.of(rules), backend);
  }

  static BackendStatus redis(boolean connected, String circuit, long notAnswered, long late) {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put(BackendStatus.NOT_ANSWERED, notAnswered);
    counters.put(BackendStatus.LATE, late);
    return new BackendStatus(BackendStatus.REDIS, "redis://10.0.0.5:6379", connected, circuit,
        circuit.equals("CLOSED") ? 0 : 1, !connected, 3, counters);
  }

  /** {@code redis} with the batching's counts. */
  static BackendStatus batched(BackendStatus redis, long decisions, long calls) {
    Map<String, Long> counters = new LinkedHashMap<>(redis.counters);
    counters.put(BackendStatus.BATCHED_DECISIONS, decisions);
    counters.put(BackendStatus.BATCH_CALLS, calls);
    return new BackendStatus(redis.kind, redis.address, redis.connected, redis.circuit,
        redis.circuitOpenings, redis.failing, redis.instances, counters);
  }

  /** counter before, counter after, seconds between the snapshots, the rate shown. */
  static Stream<Arguments> rates() {
    return Stream.of(
        Arguments.of(100, 100, 1.0, "0.0"),
        Arguments.of(100, 150, 1.0, "50.0"),
        Arguments.of(100, 150, 2.0, "25.0"),
        Arguments.of(0, 1, 4.0, "0.3"),
        // a counter that went down is another agent's (restarted JVM): no rate, not a negative one
        Arguments.of(150, 100, 1.0, "-"));
  }

  @ParameterizedTest(name = "{0} then {1} over {2} s is {3}/s")
  @MethodSource("rates")
  void aRateIsTheDifferenceOverTheInterval(long before, long after, double seconds, String shown) {
    StatusView view = new StatusView(
        snapshot(0, List.of(), BackendStatus.local(), rule("api", "gcra", "10/1s", false, before, 0, 0, 0)),
        snapshot((long) (seconds * SECOND), List.of(), BackendStatus.local(),
            rule("api", "gcra", "10/1s", false, after, 0, 0, 0)));
    assertEquals(shown, StatusText.rate(view.rate(view.current.rules.get(0), "allowed")));
  }

  @Test
  void aRuleNotInTheEarlierSnapshotHasNoRateYet() {
    StatusView view = new StatusView(
        snapshot(0, List.of(), BackendStatus.local()),
        snapshot(SECOND, List.of(), BackendStatus.local(), rule("new", "fixed-window", "5/1m", false, 7, 0, 0, 0)));
    assertNull(view.rate(view.current.rules.get(0), "allowed"));
    assertTrue(StatusText.render(view).contains("- (7)"), StatusText.render(view));
  }

  @Test
  void theTextIsOneRowARuleWithRatesAndTotalsThenKeysBackendAndProblems() {
    StatusView view = new StatusView(
        snapshot(0, List.of(), BackendStatus.local(),
            withEarlyRetries(rule("login", "sliding-window", "5/1m", false, 10, 40, 0, 0), 30),
            rule("api-trial", "token-bucket", "100/1s", true, 900, 0, 5, 0)),
        snapshot(2 * SECOND, List.of(), BackendStatus.local(),
            withEarlyRetries(rule("login", "sliding-window", "5/1m", false, 12, 60, 0, 0,
                new KeyCount("203.0.113.7", 55, 0), new KeyCount("198.51.100.2", 5, 1)), 50,
                new KeyCount("203.0.113.7", 50, 0, "told 12 s, came back after 0.2 s")),
            rule("api-trial", "token-bucket", "100/1s", true, 1100, 0, 25, 0,
                new KeyCount("acme", 25, 0))));
    String text = StatusText.render(view);
    String[] lines = text.split(System.lineSeparator());
    assertEquals("Tollgate 1.2.3 in JVM 4242: rules file /etc/rules.yaml", lines[0]);
    assertTrue(lines[1].startsWith("counts since 2026-12-05 "), lines[1]);
    assertTrue(lines[1].contains("per second over the last 2.0 s"), lines[1]);
    assertEquals(List.of(
        "RULE       ALGORITHM       LIMIT   MODE     ALLOWED/S (TOTAL)  REFUSED/S (TOTAL)"
            + "  WOULD-REFUSE/S (TOTAL)  ON-FAILURE/S (TOTAL)  EARLY-RETRY/S (TOTAL)",
        "login      sliding-window  5/1m    enforce           1.0 (12)          10.0 (60)"
            + "                 0.0 (0)               0.0 (0)              10.0 (50)",
        "api-trial  token-bucket    100/1s  shadow        100.0 (1100)            0.0 (0)"
            + "               10.0 (25)               0.0 (0)                0.0 (0)"),
        List.of(lines[3], lines[4], lines[5]));
    assertTrue(text.contains("  login: 203.0.113.7=55, 198.51.100.2=5 (+/-1)"), text);
    assertTrue(text.contains("  api-trial: acme=25"), text);
    assertTrue(text.contains("top keys retrying before their Retry-After (counts since the agent"
        + " started):" + System.lineSeparator()
        + "  login: 203.0.113.7=50 (told 12 s, came back after 0.2 s)"), text);
    assertTrue(text.contains("backend: local (counts in this JVM's memory)"), text);
    assertTrue(text.endsWith("problems: none" + System.lineSeparator()), text);
    assertFalse(view.hasProblems());
  }

  /** The backend's line, as the text shows it, for each state of Redis. */
  static Stream<Arguments> backends() {
    return Stream.of(
        Arguments.of(redis(true, "CLOSED", 0, 0), redis(true, "CLOSED", 0, 4),
            "redis redis://10.0.0.5:6379: connected, circuit closed (opened 0 times), 3 instances"
                + " sharing it; calls not answered 0.0/s (0 in all: on-failure decided), answered"
                + " late 4.0/s (4 in all: the local share decided)"),
        Arguments.of(redis(false, "OPEN", 10, 0), redis(false, "OPEN", 30, 0),
            "redis redis://10.0.0.5:6379: NOT connected, circuit open (opened 1 time), 3 instances"
                + " sharing it, decisions FAILING now; calls not answered 20.0/s (30 in all:"
                + " on-failure decided), answered late 0.0/s (0 in all: the local share decided)"),
        Arguments.of(redis(true, "HALF_OPEN", 5, 0), redis(true, "HALF_OPEN", 5, 0),
            "redis redis://10.0.0.5:6379: connected, circuit half-open (opened 1 time), 3"
                + " instances sharing it; calls not answered 0.0/s (5 in all: on-failure decided),"
                + " answered late 0.0/s (0 in all: the local share decided)"),
        Arguments.of(redis(true, "CLOSED", 0, 0), batched(redis(true, "CLOSED", 0, 0), 800, 100),
            "redis redis://10.0.0.5:6379: connected, circuit closed (opened 0 times), 3 instances"
                + " sharing it; calls not answered 0.0/s (0 in all: on-failure decided), answered"
                + " late 0.0/s (0 in all: the local share decided); 800 decisions batched in 100"
                + " calls (0.13 calls a decision)"),
        Arguments.of(BackendStatus.local(), BackendStatus.local(),
            "local (counts in this JVM's memory)"));
  }

  @ParameterizedTest
  @MethodSource("backends")
  void theBackendLineSaysItsHealth(BackendStatus before, BackendStatus after, String shown) {
    StatusView view = new StatusView(
        snapshot(0, List.of(), before), snapshot(SECOND, List.of(), after));
    assertEquals(shown, StatusText.backend(view));
  }

  @Test
  void problemsAreListedAndMakeTheViewOneWithProblems() {
    StatusView view = new StatusView(null, snapshot(0,
        List.of("the rules file /etc/rules.yaml was not applied (1 problem, the first: line 6)",
            "redis at redis://10.0.0.5:6379 is not connected"),
        redis(false, "OPEN", 0, 0)));
    String text = StatusText.render(view);
    assertTrue(text.contains("problems:" + System.lineSeparator()
        + "  the rules file /etc/rules.yaml was not applied (1 problem, the first: line 6)"
        + System.lineSeparator() + "  redis at redis://10.0.0.5:6379 is not connected"), text);
    assertTrue(text.contains("- (one snapshot)"), text);
    assertTrue(view.hasProblems());
  }

  @Test
  void whatTheAgentWritesTheCommandReadsBack() {
    StatusSnapshot written = snapshot(5 * SECOND, List.of("a \"quoted\"\nproblem"),
        redis(true, "CLOSED", 3, 4),
        withEarlyRetries(rule("login", "gcra", "5/1m", false, 1, 2, 0, 0,
            new KeyCount("k\\1", 2, 0)), 2, new KeyCount("k\\1", 2, 0, "told 1 s, came back after 0.0 s")),
        rule("trial", "concurrency", "20 in flight", true, 0, 0, 9, 1));
    StatusSnapshot read = StatusSnapshot.fromJson(written.toJson());
    assertEquals(written.toJson(), read.toJson());
    assertEquals("a \"quoted\"\nproblem", read.problems.get(0));
    assertEquals("k\\1", read.rule("login").keys("refused").get(0).key);
    assertTrue(read.rule("trial").shadow);
    assertEquals(4, read.backend.counter(BackendStatus.LATE));
    assertEquals("told 1 s, came back after 0.0 s", read.rule("login").keys("earlyRetries").get(0).note);
  }

  @Test
  void aSnapshotWithMembersThisCommandDoesNotKnowStillReads() {
    // A newer agent with a counter more: kept as it comes.
    String json = "{\"tollgate\":\"9.9\",\"pid\":1,\"takenNanos\":1,\"future\":[1,2.5,null,true],"
        + "\"rules\":[{\"name\":\"r\",\"mode\":\"enforce\",\"counters\":{\"allowed\":3,"
        + "\"futureCounter\":7}}],\"backend\":{\"kind\":\"local\"}}";
    StatusSnapshot read = StatusSnapshot.fromJson(json);
    assertEquals(7, read.rule("r").counter("futureCounter"));
    assertEquals(0, read.rule("r").counter("refused"));
    assertFalse(read.backend.isRedis());
  }

  @Test
  void theJsonHasTotalsRatesAndWhetherAllIsWell() {
    StatusView view = new StatusView(
        snapshot(0, List.of(), redis(true, "CLOSED", 0, 0),
            rule("login", "gcra", "5/1m", false, 10, 20, 0, 0)),
        snapshot(2 * SECOND, List.of(), redis(true, "CLOSED", 0, 6),
            rule("login", "gcra", "5/1m", false, 10, 30, 0, 0)));
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) Json.read(StatusJson.render(view));
    assertEquals(true, json.get("ok"));
    assertEquals(2.0, json.get("intervalSeconds"));
    Map<String, Object> login = Snapshots.objectOf(Snapshots.listOf(json.get("rules")).get(0));
    assertEquals("login", login.get("name"));
    assertEquals(30L, Snapshots.objectOf(login.get("counters")).get("refused"));
    assertEquals(5.0, Snapshots.objectOf(login.get("perSecond")).get("refused"));
    assertEquals(0.0, Snapshots.objectOf(login.get("perSecond")).get("allowed"));
    Map<String, Object> backend = Snapshots.objectOf(json.get("backend"));
    assertEquals(3.0, Snapshots.objectOf(backend.get("perSecond")).get(BackendStatus.LATE));
    assertFalse(StatusJson.render(view).contains(System.lineSeparator()), "one line");
  }

  static OutboundStatus outbound(String name, String limit, boolean shadow, String onLimit,
      long sent, long paced, long waitedMillis, long failedFast, long partner429s,
      OutboundStatus.Hold... holds) {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("sent", sent);
    counters.put("paced", paced);
    counters.put("waitedMillis", waitedMillis);
    counters.put("failedFast", failedFast);
    counters.put("partner429s", partner429s);
    counters.put("wouldLimit", 0L);
    return new OutboundStatus(name, "gcra", limit, shadow, onLimit, counters, List.of(holds));
  }

  static StatusSnapshot withOutbound(long atNanos, OutboundStatus... outbound) {
    return new StatusSnapshot("1.2.3", 4242, atNanos, 1_796_460_000_000L + atNanos / 1_000_000,
        1_796_460_000_000L, "/etc/rules.yaml", List.of(), List.of(), List.of(outbound),
        BackendStatus.local());
  }

  @Test
  void theOutboundRulesAreATableWithRatesAndTotalsThenThePartnersWaitsInForce() {
    long takenAt = 1_796_460_000_000L + 2_000;
    StatusView view = new StatusView(
        withOutbound(0, outbound("partner", "8/1s", false, "wait", 100, 40, 3000, 0, 0),
            outbound("billing", "2/1h", false, "fail", 2, 0, 0, 5, 1)),
        withOutbound(2 * SECOND, outbound("partner", "8/1s", false, "wait", 116, 60, 5000, 0, 0),
            outbound("billing", "2/1h", false, "fail", 2, 0, 0, 9, 3,
                new OutboundStatus.Hold("", takenAt + 28_500, "api.billing.example:443 answered"
                    + " 429 with Retry-After, asking to wait 30s", true),
                new OutboundStatus.Hold("acme", takenAt + 4_000, "api.billing.example:443"
                    + " answered 200 with no quota left (RateLimit), asking to wait 5s", false))));
    String text = StatusText.render(view);
    String nl = System.lineSeparator();
    assertTrue(text.contains(String.join(nl,
        "OUTBOUND RULE  ALGORITHM  LIMIT  MODE                    SENT/S (TOTAL)  PACED/S (TOTAL)"
            + "  WAITED-MS/S (TOTAL)  FAILED-FAST/S (TOTAL)  PARTNER-429/S (TOTAL)"
            + "  WOULD-LIMIT/S (TOTAL)",
        "partner        gcra       8/1s   enforce, on-limit wait       8.0 (116)        10.0 (60)"
            + "        1000.0 (5000)                0.0 (0)                0.0 (0)"
            + "                0.0 (0)",
        "billing        gcra       2/1h   enforce, on-limit fail         0.0 (2)          0.0 (0)"
            + "              0.0 (0)                2.0 (9)                1.0 (3)"
            + "                0.0 (0)")), text);
    assertTrue(text.contains(String.join(nl,
        "partner holds in force:",
        "  billing: held until 2026-12-05 08:40:30 UTC (28.5 s left); api.billing.example:443"
            + " answered 429 with Retry-After, asking to wait 30s; learnt by this instance",
        "  billing key 'acme': held until 2026-12-05 08:40:06 UTC (4.0 s left);"
            + " api.billing.example:443 answered 200 with no quota left (RateLimit), asking to wait"
            + " 5s; learnt by another instance (on redis)")), text);
  }

  @Test
  void withoutHoldsTheOutboundTableSaysSoAndWithoutOutboundRulesNothingIsShown() {
    String text = StatusText.render(new StatusView(null,
        withOutbound(0, outbound("partner", "8/1s", true, "wait", 1, 0, 0, 0, 0))));
    assertTrue(text.contains("partner holds in force: none"), text);
    assertTrue(text.contains("shadow, on-limit wait"), text);
    String none = StatusText.render(new StatusView(null, withOutbound(0)));
    assertFalse(none.contains("OUTBOUND RULE"), none);
    assertFalse(none.contains("partner holds"), none);
  }

  @Test
  void theOutboundRulesAndTheirWaitsGoThroughTheJsonWithTheirRates() {
    OutboundStatus.Hold hold = new OutboundStatus.Hold("t\\1", 1_796_460_030_000L,
        "api:443 answered 503 with Retry-After, asking to wait 30s", false);
    StatusView view = new StatusView(
        withOutbound(0, outbound("partner", "8/1s", false, "wait", 10, 0, 0, 0, 0)),
        withOutbound(2 * SECOND, outbound("partner", "8/1s", false, "wait", 30, 4, 100, 0, 2,
            hold)));
    StatusSnapshot read = StatusSnapshot.fromJson(view.current.toJson());
    assertEquals(view.current.toJson(), read.toJson());
    OutboundStatus partner = read.outboundRule("partner");
    assertEquals(30, partner.counter("sent"));
    assertEquals("wait", partner.onLimit);
    assertEquals("t\\1", partner.holds.get(0).key);
    assertEquals(1_796_460_030_000L, partner.holds.get(0).untilMillis);
    assertFalse(partner.holds.get(0).learntHere);

    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) Json.read(StatusJson.render(view));
    Map<String, Object> rule = Snapshots.objectOf(Snapshots.listOf(json.get("outbound")).get(0));
    assertEquals("partner", rule.get("name"));
    assertEquals("enforce", rule.get("mode"));
    assertEquals(10.0, Snapshots.objectOf(rule.get("perSecond")).get("sent"));
    assertEquals(1.0, Snapshots.objectOf(rule.get("perSecond")).get("partner429s"));
    Map<String, Object> held = Snapshots.objectOf(Snapshots.listOf(rule.get("partnerHolds")).get(0));
    assertEquals("api:443 answered 503 with Retry-After, asking to wait 30s", held.get("answer"));
    assertEquals(1_796_460_030_000L, held.get("until"));
  }

  /**
   * {@code rule} leasing {@code leaseTokens} a lease: allowed from a lease, decided by Redis,
   * leases, ahead, waited, decided by the share, tokens leased, unused, leases lost.
   */
  static RuleStatus leasing(RuleStatus rule, long leaseTokens, long... counts) {
    Map<String, Long> leases = new LinkedHashMap<>();
    for (int i = 0; i < counts.length; i++) {
      leases.put(LeaseStatusCounters.COUNTERS.get(i).name, counts[i]);
    }
    return new RuleStatus(rule.name, rule.algorithm, rule.limit, rule.shadow, rule.counters,
        rule.keys, leaseTokens, leases);
  }

  @Test
  void aLeasingRuleIsARowOfTheLeaseTableWithRatesAndTotals() {
    StatusView view = new StatusView(
        snapshot(0, List.of(), redis(true, "CLOSED", 0, 0),
            leasing(rule("api", "token-bucket", "1000/1s", false, 1000, 0, 0, 0), 100,
                990, 10, 10, 9, 2, 0, 999, 0, 0),
            rule("login", "token-bucket", "5/1m", false, 3, 0, 0, 0)),
        snapshot(2 * SECOND, List.of(), redis(true, "CLOSED", 0, 0),
            leasing(rule("api", "token-bucket", "1000/1s", false, 3000, 0, 0, 0), 100,
                2970, 30, 30, 29, 6, 2, 2979, 9, 1),
            rule("login", "token-bucket", "5/1m", false, 4, 0, 0, 0)));
    String text = StatusText.render(view);
    String table = LeaseStatusCounters.HEADING + ":" + System.lineSeparator() + String.join(
        System.lineSeparator(),
        "RULE  LEASE  FROM-LEASE/S (TOTAL)  BY-REDIS/S (TOTAL)  LEASES/S (TOTAL)  AHEAD/S (TOTAL)"
            + "  WAITED/S (TOTAL)  BY-SHARE/S (TOTAL)  TOKENS/S (TOTAL)  UNUSED/S (TOTAL)"
            + "  LOST/S (TOTAL)",
        "api     100          990.0 (2970)           10.0 (30)         10.0 (30)        10.0 (29)"
            + "           2.0 (6)             1.0 (2)      990.0 (2979)           4.5 (9)"
            + "         0.5 (1)");
    assertTrue(text.contains(table), text);
    assertEquals(2, StatusText.leasesTable(view).split(System.lineSeparator()).length,
        "only the leasing rules: " + text);
  }

  @Test
  void withoutLeasingRulesThereIsNoLeaseTable() {
    StatusView view = new StatusView(null, snapshot(0, List.of(), redis(true, "CLOSED", 0, 0),
        rule("login", "token-bucket", "5/1m", false, 3, 0, 0, 0)));
    assertFalse(StatusText.render(view).contains("lease"), StatusText.render(view));
    assertFalse(StatusJson.render(view).contains("lease"), StatusJson.render(view));
  }

  @Test
  void theLeasesGoThroughTheJsonWithTheirRates() {
    StatusView view = new StatusView(
        snapshot(0, List.of(), redis(true, "CLOSED", 0, 0),
            leasing(rule("api", "token-bucket", "1000/1s", false, 1000, 0, 0, 0), 100,
                990, 10, 10, 9, 2, 0, 999, 0, 0)),
        snapshot(4 * SECOND, List.of(), redis(true, "CLOSED", 0, 0),
            leasing(rule("api", "token-bucket", "1000/1s", false, 3000, 0, 0, 0), 100,
                2970, 30, 30, 29, 6, 2, 2979, 9, 1)));
    StatusSnapshot read = StatusSnapshot.fromJson(view.current.toJson());
    assertEquals(view.current.toJson(), read.toJson(), "what the agent writes the command reads");
    assertEquals(100, read.rule("api").leaseTokens);
    assertEquals(2970, read.rule("api").leaseCounter("allowedFromLease"));
    Map<String, Object> api = Snapshots.objectOf(
        Snapshots.listOf(((Map<?, ?>) Json.read(StatusJson.render(view))).get("rules")).get(0));
    assertEquals(100L, api.get("leaseTokens"));
    assertEquals(9L, Snapshots.objectOf(api.get("leases")).get("tokensUnused"));
    assertEquals(495.0, Snapshots.objectOf(api.get("leasesPerSecond")).get("allowedFromLease"));
    assertEquals(0.5, Snapshots.objectOf(api.get("leasesPerSecond")).get("decidedByShare"));
  }

  /** Text that is not a snapshot: the command says the agent answered what it cannot read. */
  static Stream<String> notSnapshots() {
    return Stream.of("", "[]", "{\"pid\":1}", "{\"tollgate\":", "attached");
  }

  @ParameterizedTest
  @MethodSource("notSnapshots")
  void textThatIsNoSnapshotIsRefused(String text) {
    try {
      StatusSnapshot.fromJson(text);
    } catch (IllegalArgumentException expected) {
      return;
    }
    throw new AssertionError("read as a snapshot: " + text);
  }
}
