package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which rules count a request, given {@code match.hosts}, {@code match.headers} and {@code skip}:
 * a skipped request is not counted by its rule, and still by the others; a skip's methods must
 * hold for the method sent and for the one the application runs.
 */
class SkipDecisionTest {

  private static final String RULES =
      String.join(
          "\n",
          "rules:",
          "  - name: all",
          "    key: global",
          "    limit: 100",
          "    period: 1h",
          "    skip:",
          "      path: /health",
          "      methods: [GET]",
          "      headers: { User-Agent: \"ELB-HealthChecker/*\" }",
          "  - name: api-host",
          "    match: { hosts: \"*.example.com\", headers: { X-Api-Key: present } }",
          "    key: global",
          "    limit: 100",
          "    period: 1h",
          "");

  @ParameterizedTest(name = "{0} (run as {1}) {2}, Host {3}, User-Agent {4}, X-Api-Key {5} -> [{6}]")
  @CsvSource(nullValues = "NONE", value = {
    // sent  run    path     Host             User-Agent              X-Api-Key  counted by
    "GET,    GET,   /health, localhost,       ELB-HealthChecker/2.0,  NONE,      ''",
    "HEAD,   HEAD,  /health, localhost,       ELB-HealthChecker/2.0,  NONE,      ''", //    HEAD with GET
    "GET,    GET,   /health, localhost,       curl/8,                 NONE,      all",
    "GET,    GET,   /health, localhost,       NONE,                   NONE,      all",
    "POST,   POST,  /health, localhost,       ELB-HealthChecker/2.0,  NONE,      all", //   not a GET
    "POST,   GET,   /health, localhost,       ELB-HealthChecker/2.0,  NONE,      all", //   no skip by override
    "GET,    GET,   /hello,  localhost,       ELB-HealthChecker/2.0,  NONE,      all", //   other paths count
    "GET,    GET,   /health, api.example.com, ELB-HealthChecker/2.0,  k1,        api-host", // skipped by one rule only
    "GET,    GET,   /hello,  api.example.com, curl/8,                 k1,        'all api-host'",
    "GET,    GET,   /hello,  api.example.com, curl/8,                 NONE,      all", //   the header is needed
    "GET,    GET,   /hello,  example.com,     curl/8,                 k1,        all", //   and the host
  })
  void countedBy(
      String sent, String run, String path, String host, String userAgent, String apiKey,
      String countedBy) throws Exception {
    RuleSet rules =
        new RuleSetFactory(ManualClock.atEpochMillis(0))
            .build(RulesFileParser.parse(RULES, "rules.yaml"), null);
    FakeExchange exchange = new FakeExchange(run, path).header("Host", host);
    if (userAgent != null) {
      exchange.header("User-Agent", userAgent);
    }
    if (apiKey != null) {
      exchange.header("X-Api-Key", apiKey);
    }
    RuleVerdicts verdicts =
        new RequestDecider()
            .decide(exchange, sent, rules, DecisionPoint.ONLY_ENTRY, null, null, false, Long.MAX_VALUE);
    List<String> names = new ArrayList<>();
    if (verdicts != null) {
      for (RuleVerdicts.Entry e : verdicts.entries()) {
        names.add(e.rule.name());
      }
    }
    assertEquals(countedBy, String.join(" ", names));
  }
}
