package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.Durations;
import io.tollgate.config.HeadersMode;
import io.tollgate.config.RulesFileParser;
import io.tollgate.http.RefusalResponse;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.testing.StructuredFields;
import io.tollgate.testing.StructuredFields.Item;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a client reads in the quota headers, for every algorithm and every {@code headers:} mode,
 * parsed as the client would: the RateLimit fields with an RFC 9651 parser ({@link
 * StructuredFields}), the legacy ones as integers.
 *
 * <p>Each row is a rule (3 a minute unless it says otherwise), a script of requests ({@code GET}
 * to {@code /api}, {@code GET/login} to {@code /login}) and waits, and what the last response carries: its status, then {@code r} and {@code t} of
 * {@code RateLimit}, {@code x=LIMIT/REMAINING/RESET} of {@code X-RateLimit-*}, and {@code retry}
 * of {@code Retry-After}. The newest draft ({@code draft}, {@code both}) gives in {@code t} the
 * time until more quota is available, and on a refusal the {@code Retry-After}; draft-8 and the
 * legacy reset give the time until the quota is whole again.
 *
 * <p>Every row also checks what the draft asks of every response: a {@code RateLimit} item names
 * a {@code RateLimit-Policy} item, {@code q}, {@code w}, {@code r} and {@code t} are non-negative
 * Integers ({@code w} above 0), and {@code Retry-After} is never earlier than the newest draft's
 * {@code t}.
 */
class RateLimitHeaderModesTest {

  /** 2026-03-28 22:30 UTC: a whole minute, so windows start with the script. */
  static final long START = Instant.parse("2026-03-28T22:30:00Z").toEpochMilli();

  static Stream<Arguments> rows() {
    return Stream.of(
        // token bucket (the default): one token every 20 s
        row("token-bucket, bucket emptied", "", "GET GET GET",
            "draft", "200 r=0 t=20", "draft-8", "200 r=0 t=60",
            "legacy", "200 x=3/0/60", "both", "200 r=0 t=20 x=3/0/60", "none", "200"),
        row("token-bucket, refused", "", "GET GET GET GET",
            "draft", "429 r=0 t=20 retry=20", "draft-8", "429 r=0 t=60 retry=20",
            "both", "429 r=0 t=20 x=3/0/60 retry=20", "none", "429 retry=20"),
        row("token-bucket, a token partly back", "", "GET wait 5s GET",
            "draft", "200 r=1 t=15", "draft-8", "200 r=1 t=35", "legacy", "200 x=3/1/35"),
        row("token-bucket, 7 a minute: the next token is 8.57 s away", "limit: 7", "GET",
            "draft", "200 r=6 t=9", "draft-8", "200 r=6 t=9"),
        // gcra: the same bucket; with max-delay the delayed request's slot is booked
        row("gcra", "algorithm: gcra", "GET GET GET",
            "draft", "200 r=0 t=20", "draft-8", "200 r=0 t=60"),
        row("gcra, refused", "algorithm: gcra", "GET GET GET wait 5s GET",
            "draft", "429 r=0 t=15 retry=15", "draft-8", "429 r=0 t=55 retry=15"),
        row("gcra with max-delay: a held request (one every 10 s)",
            "algorithm: gcra\nlimit: 6\nmax-delay: 10s", "GET GET GET GET GET GET GET",
            "draft", "200 r=0 t=20", "draft-8", "200 r=0 t=70"),
        // windows: more quota comes when the window ends, as the reset says
        row("fixed-window", "algorithm: fixed-window", "GET GET GET",
            "draft", "200 r=0 t=60", "draft-8", "200 r=0 t=60"),
        row("fixed-window, refused", "algorithm: fixed-window", "GET GET GET wait 10s GET",
            "draft", "429 r=0 t=50 retry=50", "draft-8", "429 r=0 t=50 retry=50",
            "legacy", "429 x=3/0/50 retry=50"),
        row("calendar day (UTC): until midnight", "limit: 3\ncalendar: day\ntime-zone: UTC", "GET",
            "draft", "200 r=2 t=5400", "draft-8", "200 r=2 t=5400"),
        // sliding window: 3 counted now weigh on the next window until 20 s into it
        row("sliding-window", "algorithm: sliding-window", "GET GET GET",
            "draft", "200 r=0 t=80", "draft-8", "200 r=0 t=120"),
        row("sliding-window, refused", "algorithm: sliding-window", "GET GET GET GET",
            "draft", "429 r=0 t=80 retry=80", "draft-8", "429 r=0 t=120 retry=80",
            "both", "429 r=0 t=80 x=3/0/120 retry=80"),
        row("sliding-window, one left", "algorithm: sliding-window", "GET GET",
            "draft", "200 r=1 t=90", "draft-8", "200 r=1 t=120"),
        // sliding log: more quota when the oldest entry is a minute old
        row("sliding-log", "algorithm: sliding-log", "GET wait 10s GET wait 10s GET",
            "draft", "200 r=0 t=40", "draft-8", "200 r=0 t=60"),
        row("sliding-log, refused", "algorithm: sliding-log",
            "GET wait 10s GET wait 10s GET GET",
            "draft", "429 r=0 t=40 retry=40", "draft-8", "429 r=0 t=60 retry=40"),
        // concurrency: nothing comes back with time
        row("concurrency", "algorithm: concurrency", "GET",
            "draft", "200 r=2 t=0", "draft-8", "200 r=2 t=0"),
        // several limits: the one with the least left speaks
        row("several limits", "limits: [{limit: 2, period: 10s}, {limit: 5, period: 1h}]",
            "GET GET",
            "draft", "200 r=0 t=5", "draft-8", "200 r=0 t=10"),
        // a penalty box: the refusal that fills it says the penalty, in t as in Retry-After
        row("penalty box", "limit: 1\npenalty: { after: 2, within: 1m, box-for: 15m }",
            "GET GET GET",
            "draft", "429 r=0 t=900 retry=900", "draft-8", "429 r=0 t=900 retry=900"),
        // a login-style rule tells an attacker nothing about the tries left
        row("login rule: no quota headers", "match: {path: /login}",
            "GET/login GET/login GET/login GET/login",
            "draft", "429 retry=20", "draft-8", "429 retry=20", "both", "429 retry=20"));
  }

  /** A row: the rule's extra lines, the script, then mode and expected outcome, pairwise. */
  static Arguments row(String title, String ruleLines, String script, String... modesAndOutcomes) {
    return Arguments.of(title, ruleLines, script, List.of(modesAndOutcomes));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void eachModeTellsTheClientItsOwnMeaning(
      String title, String ruleLines, String script, List<String> modesAndOutcomes)
      throws Exception {
    for (int i = 0; i < modesAndOutcomes.size(); i += 2) {
      String mode = modesAndOutcomes.get(i);
      String expected = modesAndOutcomes.get(i + 1);
      ManualClock clock = ManualClock.atEpochMillis(START);
      String outcome = run(clock, yaml(mode, "", ruleLines), script);
      assertEquals(expected, outcome, title + ", headers: " + mode);
    }
  }

  /**
   * A rules file of one rule {@code api} keyed by client address: 3 a minute and {@code
   * ruleLines}, or only {@code ruleLines} when they give the limit themselves.
   */
  static String yaml(String mode, String topLines, String ruleLines) {
    StringBuilder yaml = new StringBuilder("headers: ").append(mode).append('\n').append(topLines);
    yaml.append("rules:\n  - name: api\n    key: ip\n");
    if (!ruleLines.matches("(?s).*\\b(limit|limits)\\b.*")) {
      ruleLines = "limit: 3\nperiod: 1m\n" + ruleLines;
    } else if (!ruleLines.matches("(?s).*\\b(period|limits|calendar)\\b.*")) {
      ruleLines = "period: 1m\n" + ruleLines;
    }
    for (String line : ruleLines.split("\n")) {
      if (!line.isEmpty()) {
        yaml.append("    ").append(line).append('\n');
      }
    }
    return yaml.toString();
  }

  /** Runs the script on a fresh rule set; returns the last response as the table writes it. */
  static String run(Clock clock, String yaml, String script) throws Exception {
    RuleSet rules = new RuleSetFactory(clock).build(RulesFileParser.parse(yaml, "rules.yaml"), null);
    return run(clock instanceof ManualClock ? (ManualClock) clock : null, rules, script);
  }

  static String run(ManualClock clock, RuleSet rules, String script) {
    String outcome = null;
    String[] words = script.trim().split(" +");
    for (int w = 0; w < words.length; w++) {
      if (words[w].equals("wait")) {
        clock.advanceNanos(Durations.parseNanos(words[++w]));
      } else {
        outcome = send(rules, words[w]);
      }
    }
    return outcome;
  }

  /** One request, its response's headers as Tollgate writes them, read back as a client would. */
  static String send(RuleSet rules, String request) {
    int slash = request.indexOf('/');
    FakeExchange exchange = slash < 0
        ? new FakeExchange(request, "/api")
        : new FakeExchange(request.substring(0, slash), request.substring(slash));
    RuleVerdicts verdicts =
        new RequestDecider().decide(exchange, rules, DecisionPoint.FIRST_ENTRY, null);
    assertNotNull(verdicts, "the rule matches");
    List<String[]> headers = new ArrayList<>();
    QuotaHeaders.addTo(headers, verdicts, rules.headers());
    int status = 200;
    if (verdicts.refused()) {
      RuleVerdicts.Entry by = verdicts.refusedBy();
      RefusalResponse.addHeaders(
          headers, by.rule.name(), RefusalResponse.retryAfterSeconds(by.verdict.retryAfterNanos));
      status = by.rule.refusalBody().status(by.verdict.backendUnavailable);
    } else {
      verdicts.requestEnded(exchange::responseHeader);
    }
    return status + read(headers, rules.headers());
  }

  /** The headers as a client reads them, checked against what the draft requires. */
  static String read(List<String[]> headers, HeadersMode mode) {
    List<String> policy = values(headers, "RateLimit-Policy");
    List<String> rateLimit = values(headers, "RateLimit");
    List<String> retryAfter = values(headers, "Retry-After");
    StringBuilder out = new StringBuilder();
    Long t = null;
    if (!rateLimit.isEmpty()) {
      List<Item> policies = StructuredFields.parseList(policy);
      assertFalse(policies.isEmpty(), "RateLimit-Policy is a non-empty list");
      Set<String> names = new HashSet<>();
      for (Item item : policies) {
        names.add(item.string());
        assertTrue(item.integer("q") >= 0, "q: " + item);
        assertTrue(item.integer("w") > 0, "w: " + item);
      }
      List<Item> limits = StructuredFields.parseList(rateLimit);
      assertEquals(1, limits.size(), "RateLimit reports one policy: " + rateLimit);
      Item limit = limits.get(0);
      assertTrue(names.contains(limit.string()), limit + " names a policy of " + policy);
      assertTrue(limit.integer("r") >= 0, "r: " + limit);
      t = limit.integer("t");
      assertTrue(t >= 0, "t: " + limit);
      out.append(" r=").append(limit.integer("r")).append(" t=").append(t);
    } else {
      assertTrue(policy.isEmpty(), "RateLimit-Policy without RateLimit: " + policy);
    }
    List<String> legacyLimit = values(headers, "X-RateLimit-Limit");
    if (!legacyLimit.isEmpty()) {
      out.append(" x=").append(Long.parseLong(legacyLimit.get(0)))
          .append('/').append(Long.parseLong(values(headers, "X-RateLimit-Remaining").get(0)))
          .append('/').append(Long.parseLong(values(headers, "X-RateLimit-Reset").get(0)));
    }
    if (!retryAfter.isEmpty()) {
      long retry = Long.parseLong(retryAfter.get(0));
      if (t != null && mode != HeadersMode.DRAFT_8) {
        // the newest draft: Retry-After SHOULD NOT be earlier than t; Tollgate makes them equal
        assertEquals(retry, (long) t, "t of a refusal is the Retry-After");
      }
      out.append(" retry=").append(retry);
    }
    return out.toString();
  }

  @ParameterizedTest(name = "headers: {0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"draft", "draft-8", "both"})
  void aRuleAskingForItNamesTheClientsPartitionWithoutShowingTheKey(String mode) throws Exception {
    ManualClock clock = ManualClock.atEpochMillis(START);
    RuleSet rules = new RuleSetFactory(clock).build(RulesFileParser.parse(
        yaml(mode, "", "partition-key: true"), "rules.yaml"), null);
    byte[] first = partitionKey(rules, "198.51.100.7");
    assertEquals(12, first.length, "12 bytes of SHA-256");
    assertTrue(java.util.Arrays.equals(first, partitionKey(rules, "198.51.100.7")),
        "the same client, the same partition");
    assertFalse(java.util.Arrays.equals(first, partitionKey(rules, "203.0.113.9")),
        "another client, another partition");

    RuleSet without = new RuleSetFactory(clock).build(
        RulesFileParser.parse(yaml(mode, "", ""), "rules.yaml"), null);
    List<String[]> headers = new ArrayList<>();
    QuotaHeaders.addTo(headers, decide(without, "198.51.100.7"), without.headers());
    for (Item item : StructuredFields.parseList(values(headers, "RateLimit"))) {
      assertFalse(item.params.containsKey("pk"), "no pk unless the rule asks: " + item);
    }
  }

  /** The pk of a request from {@code client}, the same in both fields. */
  private static byte[] partitionKey(RuleSet rules, String client) {
    List<String[]> headers = new ArrayList<>();
    QuotaHeaders.addTo(headers, decide(rules, client), rules.headers());
    read(headers, rules.headers());
    byte[] inPolicy = (byte[]) StructuredFields.parseList(values(headers, "RateLimit-Policy"))
        .get(0).params.get("pk");
    byte[] inLimit = (byte[]) StructuredFields.parseList(values(headers, "RateLimit"))
        .get(0).params.get("pk");
    assertNotNull(inPolicy, "pk in RateLimit-Policy: " + values(headers, "RateLimit-Policy"));
    assertTrue(java.util.Arrays.equals(inPolicy, inLimit), "the same pk in RateLimit");
    return inLimit;
  }

  private static RuleVerdicts decide(RuleSet rules, String client) {
    return new RequestDecider().decide(
        new FakeExchange("GET", "/api").from(client), rules, DecisionPoint.FIRST_ENTRY, null);
  }

  private static List<String> values(List<String[]> headers, String name) {
    List<String> values = new ArrayList<>();
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        values.add(header[1]);
      }
    }
    return values;
  }
}
