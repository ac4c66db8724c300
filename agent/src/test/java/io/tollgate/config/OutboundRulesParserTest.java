package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules file's {@code outbound:} list: what a valid entry means, and what each mistake says. */
class OutboundRulesParserTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  static String yaml(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  /** An outbound rule with every required key, to which a case adds lines (from line 7). */
  static String outbound(String... extra) {
    List<String> lines = new java.util.ArrayList<>(Arrays.asList(
        "outbound:",
        "  - name: partner",
        "    match:",
        "      hosts: api.partner.example",
        "    limit: 10",
        "    period: 1s"));
    lines.addAll(Arrays.asList(extra));
    return yaml(lines.toArray(new String[0]));
  }

  @Test
  void aLeakyBucketInFrontOfAPartner() throws ConfigException {
    RulesConfig config = RulesFileParser.parse(yaml(
        "rules: []",
        "outbound:",
        "  - name: partner",
        "    match:",
        "      hosts: [api.partner.example, \"*.partner.example\"]",
        "      port: 8443",
        "      path: /v2/**",
        "      methods: [get, POST]",
        "    key: header:X-Tenant",
        "    algorithm: gcra",
        "    limit: 10",
        "    period: 1s",
        "    max-delay: 5s",
        "    max-wait: 6s",
        "    max-honoured-wait: 2m"), "rules.yaml");
    OutboundRuleConfig rule = config.outbound().get(0);
    assertEquals("partner", rule.name());
    assertEquals(3, rule.line());
    assertEquals(Arrays.asList("api.partner.example", "*.partner.example"), rule.hosts());
    assertEquals(8443, rule.port());
    assertEquals(Collections.singletonList("/v2/**"), rule.paths());
    assertEquals(new LinkedHashSet<>(Arrays.asList("GET", "POST")), rule.methods());
    assertEquals("header:x-tenant", rule.key());
    assertEquals(AlgorithmKind.GCRA, rule.algorithm());
    assertEquals(Collections.singletonList(LimitSpec.of(10, SECOND)), rule.limits());
    assertEquals(5 * SECOND, rule.maxDelayNanos());
    assertEquals(6 * SECOND, rule.maxWaitNanos());
    assertEquals(OnLimit.WAIT, rule.onLimit());
    assertTrue(rule.honourPartner());
    assertEquals(120 * SECOND, rule.maxHonouredWaitNanos());
    assertEquals(Backend.LOCAL, rule.effectiveBackend(config.backend()));
  }

  /** What a rule that says little means. */
  static Stream<Arguments> defaults() {
    return Stream.of(
        Arguments.of("key", outbound(), "global"),
        Arguments.of("on-limit", outbound(), "wait"),
        Arguments.of("max-wait without max-delay", outbound(), "5s"),
        Arguments.of("max-wait is the gcra's max-delay when longer",
            outbound("    algorithm: gcra", "    max-delay: 8s"), "8s"),
        Arguments.of("max-wait with on-limit: fail", outbound("    on-limit: fail"), "0s"),
        Arguments.of("honour-partner", outbound(), "true"),
        Arguments.of("max-honoured-wait", outbound(), "1m"),
        Arguments.of("any host", outbound().replace("api.partner.example", "\"*\""), "[]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("defaults")
  void defaultsAre(String what, String yaml, String expected) throws ConfigException {
    OutboundRuleConfig rule = RulesFileParser.parse(yaml, "rules.yaml").outbound().get(0);
    String actual;
    switch (what.split(" ")[0]) {
      case "key":
        actual = rule.key();
        break;
      case "on-limit":
        actual = rule.onLimit().yamlName();
        break;
      case "max-wait":
        actual = Durations.format(rule.maxWaitNanos());
        break;
      case "honour-partner":
        actual = String.valueOf(rule.honourPartner());
        break;
      case "max-honoured-wait":
        actual = Durations.format(rule.maxHonouredWaitNanos());
        break;
      default:
        actual = rule.hosts().toString();
    }
    assertEquals(expected, actual, what);
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> corpus() {
    return Stream.of(
        broken("a misspelt key", outbound("    on-limt: fail"), 7, "on-limt", "did you mean 'on-limit'"),
        broken("no hosts", yaml("outbound:", "  - name: p", "    match:", "      path: /x",
            "    limit: 1", "    period: 1s"), 3, "match.hosts is missing"),
        broken("no match at all", yaml("outbound:", "  - name: p", "    limit: 1", "    period: 1s"),
            2, "match is missing"),
        broken("a host with a port", outbound().replace("api.partner.example", "api.partner.example:443"),
            4, "must not have a port"),
        broken("a port out of range", outbound().replace("    limit: 10", "      port: 70000\n    limit: 10"),
            5, "match.port must be a port"),
        broken("an unknown key kind", outbound("    key: ip"), 7, "unknown key 'ip'", "global, host, header:NAME"),
        broken("a misspelt key kind", outbound("    key: hots"), 7, "did you mean 'host'"),
        broken("a concurrency algorithm", outbound("    algorithm: concurrency"), 7,
            "does not apply to outbound rules"),
        broken("a misspelt algorithm", outbound("    algorithm: gcr"), 7, "did you mean 'gcra'"),
        broken("max-delay without gcra", outbound("    max-delay: 1s"), 7, "gcra algorithm only"),
        broken("max-delay past max-wait", outbound("    algorithm: gcra", "    max-delay: 4s",
            "    max-wait: 2s"), 8, "longer than the call may wait", "lengthen max-wait"),
        broken("max-wait past the hold cap", outbound("    max-wait: 31s"), 7, "at most 30s"),
        broken("max-wait with on-limit: fail", outbound("    on-limit: fail", "    max-wait: 1s"), 8,
            "paces none"),
        broken("a misspelt on-limit", outbound("    on-limit: wiat"), 7, "did you mean 'wait'"),
        broken("max-honoured-wait without honouring", outbound("    honour-partner: false",
            "    max-honoured-wait: 1s"), 8, "remove one of them"),
        broken("redis for a rule of a local file", outbound("    backend: redis"), 7,
            "file's backend is local"),
        broken("no limit", yaml("outbound:", "  - name: p", "    match:", "      hosts: a.example",
            "    period: 1s"), 2, "limit is missing"),
        broken("two rules of one name", yaml("outbound:", "  - name: p", "    match: {hosts: a.example}",
            "    limit: 1", "    period: 1s", "  - name: p", "    match: {hosts: b.example}",
            "    limit: 1", "    period: 1s"), 6, "duplicate outbound rule name 'p'", "line 2"),
        broken("not a list", yaml("outbound:", "  name: p"), 2, "must be a list of outbound rules"),
        broken("a misspelt top-level key", yaml("outbund: []"), 1, "did you mean 'outbound'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void isRefusedWithOneProblem(String what, String yaml, int line, String[] words) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> RulesFileParser.parse(yaml, "rules.yaml"), what);
    assertEquals(1, e.problems().size(), what + ": " + e.problems());
    ConfigProblem problem = e.problems().get(0);
    assertEquals(line, problem.line(), what + ": " + problem);
    assertTrue(problem.toString().startsWith("rules.yaml: line " + line), problem.toString());
    for (String word : words) {
      assertTrue(problem.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          what + ": '" + word + "' not in " + problem);
    }
  }
}
