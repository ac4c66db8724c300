package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.Durations;
import io.tollgate.config.HeadersMode;
import io.tollgate.config.RulesFileParser;
import io.tollgate.http.RateLimitHeaders;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rule model, request by request: several limits, plans, allowlists, penalty boxes, calendar
 * quotas, cost correction and pacing.
 *
 * <p>Each scenario is a rules file and a script. {@code wait 1s} moves the clock; a request line
 * reads {@code GET /path [from ADDRESS] [plan:NAME] [key:API-KEY] [reports N] -> OUTCOME}, where
 * {@code reports N} is the application setting {@code X-Tollgate-Cost: N} on its response, and the
 * outcome is {@code 200}, {@code 200 delay 1s} (held that long first) or {@code 429 RULE} with an
 * optional {@code retry Ns}.
 */
class RuleModelTest {

  /** 2026-03-28 23:30 in Paris (22:30 UTC): the night before the clocks go forward. */
  private static final long START = Instant.parse("2026-03-28T22:30:00Z").toEpochMilli();

  static Stream<Arguments> scenarios() {
    return Stream.of(
        scenario(
            "one limit: the rule's own name",
            rule("limit: 2", "period: 1m"),
            "GET /api -> 200",
            "GET /api -> 200",
            "GET /api -> 429 api retry 30s"),
        scenario(
            "several limits: each refuses in its own name, and a request refused by one costs"
                + " nothing on the others",
            rule("limits: [{limit: 2, period: 1s}, {limit: 3, period: 1h}]"),
            "GET /api -> 200",
            "GET /api -> 200",
            "GET /api -> 429 api/1s retry 1s",
            "wait 1s",
            "GET /api -> 200",
            "GET /api -> 429 api/1h retry 1199s",
            "GET /api -> 429 api/1h",
            "GET /api -> 429 api/1h",
            // the hour refused those three, so the second's bucket still has its token
            "wait 1199s",
            "GET /api -> 200"),
        scenario(
            "plans: the header picks the plan, any case; unknown or missing gets the default",
            rule(
                "plans:",
                "  header: X-Plan",
                "  default: free",
                "  limits:",
                "    free: {limit: 1, period: 1m}",
                "    pro: {limit: 3, period: 1m}"),
            "GET /api plan:pro -> 200",
            "GET /api plan:pro -> 200",
            "GET /api plan:PRO -> 200",
            "GET /api plan:pro -> 429 api retry 20s",
            "GET /api -> 200",
            "GET /api -> 429 api retry 60s",
            "GET /api plan:gold -> 429 api retry 60s"),
        scenario(
            "allow.cidrs: clients in the networks are never limited nor counted",
            rule("limit: 1", "period: 1m", "allow: { cidrs: [10.0.0.0/8, 2001:db8::/32] }"),
            "GET /api from 10.1.2.3 -> 200",
            "GET /api from 10.1.2.3 -> 200",
            "GET /api from 2001:db8::1 -> 200",
            "GET /api from 2001:db8::1 -> 200",
            "GET /api from 203.0.113.7 -> 200",
            "GET /api from 203.0.113.7 -> 429 api"),
        scenario(
            "top-level allow applies to every rule",
            "allow: { cidrs: [192.0.2.0/24] }\n" + rule("limit: 1", "period: 1m"),
            "GET /api from 192.0.2.9 -> 200",
            "GET /api from 192.0.2.9 -> 200",
            "GET /api from 198.51.100.1 -> 200",
            "GET /api from 198.51.100.1 -> 429 api"),
        scenario(
            "allow.keys: listed API keys are exempt, compared as the rule keys them (hashed)",
            rule("key: header:X-Api-Key", "limit: 1", "period: 1m", "allow: { keys: [partner-1] }"),
            "GET /api key:partner-1 -> 200",
            "GET /api key:partner-1 -> 200",
            "GET /api key:someone -> 200",
            "GET /api key:someone -> 429 api"),
        scenario(
            "key-fallback: requests without the API key are counted by address, apart from keyed"
                + " ones",
            rule("key: header:X-Api-Key", "key-fallback: ip", "limit: 1", "period: 1m"),
            "GET /api key:k1 -> 200",
            "GET /api key:k1 -> 429 api",
            "GET /api -> 200",
            "GET /api -> 429 api",
            "GET /api from 198.51.100.9 -> 200",
            "GET /api key:k2 -> 200"),
        scenario(
            "no key-fallback: requests that lack the key are not counted by the rule",
            rule("key: header:X-Api-Key", "limit: 1", "period: 1m"),
            "GET /api -> 200",
            "GET /api -> 200",
            "GET /api -> 200"),
        scenario(
            "penalty: the refusal that fills the box says so, and the box outlasts the limit",
            rule("limit: 1", "period: 1m", "penalty: { after: 2, within: 1m, box-for: 15m }"),
            "GET /api -> 200",
            "GET /api -> 429 api retry 60s",
            "GET /api -> 429 api retry 900s",
            "wait 2m",
            "GET /api -> 429 api retry 780s",
            "wait 13m",
            "GET /api -> 200"),
        scenario(
            "calendar quota: a local day in Europe/Paris, 23 hours long when the clocks go forward",
            rule("limit: 2", "calendar: day", "time-zone: Europe/Paris"),
            "GET /api -> 200",
            "GET /api -> 200",
            "GET /api -> 429 api retry 1800s",
            "wait 30m",
            "GET /api -> 200",
            "GET /api -> 200",
            "GET /api -> 429 api retry 82800s"),
        scenario(
            "cost-header: the reported cost replaces the up-front one, charged or refunded",
            rule(
                "algorithm: fixed-window",
                "limit: 100",
                "period: 1h",
                "cost: 10",
                "cost-header: X-Tollgate-Cost"),
            "GET /export reports 60 -> 200",
            "GET /export reports 0 -> 200",
            "GET /export reports 30 -> 200",
            "GET /export -> 200",
            "GET /export reports 0 -> 429 api"),
        scenario(
            "cost-header refunds on a token bucket: cheap requests leave the budget whole",
            rule("limit: 30", "period: 1h", "cost: 10", "cost-header: X-Tollgate-Cost"),
            "GET /export reports 0 -> 200",
            "GET /export reports 0 -> 200",
            "GET /export reports 0 -> 200",
            "GET /export reports 0 -> 200",
            "GET /export -> 200",
            "GET /export -> 200",
            "GET /export -> 200",
            "GET /export -> 429 api"),
        scenario(
            "an extra charge uses the budget up, never beyond",
            rule("limit: 10", "period: 10s", "cost-header: X-Tollgate-Cost"),
            "GET /export reports 500 -> 200",
            "GET /export -> 429 api retry 1s",
            "wait 1s",
            "GET /export -> 200"),
        scenario(
            "gcra max-delay: requests over the rate are held, not refused, up to max-delay",
            rule("algorithm: gcra", "limit: 1", "period: 1s", "max-delay: 2s"),
            "GET /api -> 200",
            "GET /api -> 200 delay 1s",
            "GET /api -> 200 delay 2s",
            "GET /api -> 429 api retry 1s"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void scenario(String title, String rulesYaml, List<String> script) throws Exception {
    Harness h = new Harness(rulesYaml);
    for (int i = 0; i < script.size(); i++) {
      String line = script.get(i);
      if (line.startsWith("wait ")) {
        h.clock.advanceNanos(Durations.parseNanos(line.substring(5)));
        continue;
      }
      String[] parts = line.split(" -> ");
      String actual = h.send(parts[0]);
      String expected = parts[1];
      assertTrue(
          actual.equals(expected) || actual.startsWith(expected + " "),
          "step " + (i + 1) + " '" + line + "': got " + actual);
    }
  }

  @Test
  void eachOfSeveralLimitsIsItsOwnPolicyInTheHeaders() throws Exception {
    Harness h = new Harness(rule("limits: [{limit: 10, period: 1s}, {limit: 1000, period: 1h}]"));
    RuleVerdicts verdicts =
        h.decider.decide(FakeExchange.get("/api"), h.rules, DecisionPoint.FIRST_ENTRY, null);
    List<String[]> headers = new ArrayList<>();
    QuotaHeaders.addTo(headers, verdicts, HeadersMode.DRAFT);
    assertEquals("RateLimit-Policy: \"api/1s\";q=10;w=1, \"api/1h\";q=1000;w=3600", show(headers.get(0)));
    assertEquals("RateLimit: \"api/1s\";r=9;t=1", show(headers.get(1)));
  }

  @Test
  void aShadowRuleTellsClientsNothingOnlyTheEnforcedRulesQuotasAreShown() throws Exception {
    Harness h = new Harness("rules:\n"
        + "  - name: narrow\n    match: {path: /api}\n    key: ip\n    limit: 2\n    period: 10s\n"
        + "  - name: shadowed\n    match: {path: /api}\n    key: ip\n    limit: 1\n    period: 1h\n"
        + "    mode: shadow\n");
    h.decider.decide(FakeExchange.get("/api"), h.rules, DecisionPoint.FIRST_ENTRY, null);
    RuleVerdicts second =
        h.decider.decide(FakeExchange.get("/api"), h.rules, DecisionPoint.FIRST_ENTRY, null);
    assertTrue(second.wouldRefuse() != null, "the shadow rule would refuse the second request");
    List<String[]> headers = new ArrayList<>();
    QuotaHeaders.addTo(headers, second, HeadersMode.DRAFT);
    assertEquals("RateLimit-Policy: \"narrow\";q=2;w=10", show(headers.get(0)));
    // the bucket of 2 per 10 s is empty; its next token is 5 s away
    assertEquals("RateLimit: \"narrow\";r=0;t=5", show(headers.get(1)));
  }

  @Test
  void aRuleChangedOnReloadKeepsTheCountsOfTheLimitsThatDidNotChange() throws Exception {
    Harness h = new Harness(rule("limits: [{limit: 1, period: 1m}, {limit: 5, period: 1h}]"));
    assertEquals("200", h.send("GET /api"));
    h.reload(rule("limits: [{limit: 2, period: 1m}, {limit: 5, period: 1h}, {limit: 9, period: 1d}]"));
    // the minute's limit changed (its 1 used stays used: 1 more of 2), the hour's kept its count
    assertEquals("200", h.send("GET /api"));
    assertTrue(h.send("GET /api").startsWith("429 api/1m"));
  }

  private static String show(String[] header) {
    return header[0] + ": " + header[1];
  }

  static String rule(String... lines) {
    StringBuilder sb = new StringBuilder("rules:\n  - name: api\n");
    for (String l : lines) {
      for (String sub : l.split("\n")) {
        sb.append("    ").append(sub).append('\n');
      }
    }
    return sb.toString();
  }

  static Arguments scenario(String title, String yaml, String... script) {
    return Arguments.of(title, yaml, Arrays.asList(script));
  }

  /** The engine on a manual clock. */
  static final class Harness {
    final ManualClock clock = ManualClock.atEpochMillis(START);
    final RuleSetFactory factory = new RuleSetFactory(clock);
    final RequestDecider decider = new RequestDecider();
    RuleSet rules;

    Harness(String yaml) throws Exception {
      reload(yaml);
    }

    void reload(String yaml) throws Exception {
      rules = factory.build(RulesFileParser.parse(yaml, "rules.yaml"), rules);
    }

    /** Sends one request; returns the outcome as the scripts write it. */
    String send(String request) {
      String[] words = request.trim().split(" +");
      FakeExchange exchange = new FakeExchange(words[0], words[1]);
      String reported = null;
      for (int w = 2; w < words.length; w++) {
        if (words[w].equals("from")) {
          exchange.from(words[++w]);
        } else if (words[w].startsWith("plan:")) {
          exchange.header("X-Plan", words[w].substring(5));
        } else if (words[w].startsWith("key:")) {
          exchange.header("X-Api-Key", words[w].substring(4));
        } else if (words[w].equals("reports")) {
          reported = words[++w];
        } else {
          throw new IllegalArgumentException("unknown word in the script: " + words[w]);
        }
      }
      RuleVerdicts verdicts = decider.decide(exchange, rules, DecisionPoint.FIRST_ENTRY, null);
      if (verdicts == null) {
        return "200";
      }
      if (verdicts.refused()) {
        RuleVerdicts.Entry by = verdicts.refusedBy();
        return "429 " + by.rule.name() + " retry "
            + RateLimitHeaders.ceilSeconds(by.verdict.retryAfterNanos) + "s";
      }
      long delay = verdicts.takeDelayNanos();
      if (reported != null) {
        exchange.setResponseHeader("X-Tollgate-Cost", reported);
      }
      verdicts.requestEnded(exchange::responseHeader);
      return delay > 0 ? "200 delay " + Durations.format(delay) : "200";
    }
  }
}
