package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.LimitSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fingerprints a build makes through one {@link CountedState#ofFile} for all of a file's rules
 * (the file's own rows made once, one builder written over) are, character for character, those
 * made one by one, each through an {@code OfFile} of its own: a reload compares them, so a
 * difference would start counts afresh. For every example file, and for files whose rows of the
 * file are not their defaults.
 */
class FingerprintsOfOneFileTest {

  static Stream<Object[]> files() throws Exception {
    Stream<Object[]> examples = ConfigExamplesTest.rulesFiles()
        .map(p -> new Object[] {p.getFileName().toString(), parse(p)});
    Stream<Object[]> own = Stream.of(
        new Object[] {"proxy hops, IPv6 prefix", RulesFileParser.parse(String.join("\n",
            "client-ip:",
            "  trusted-proxies: 2",
            "  ipv6-prefix: 48",
            RULES), "hops.yaml")},
        new Object[] {"proxy CIDRs", RulesFileParser.parse(String.join("\n",
            "client-ip:",
            "  trusted-proxies: [10.0.0.0/8, 192.168.1.0/24]",
            RULES), "cidrs.yaml")},
        new Object[] {"redis with every store option", RulesFileParser.parse(String.join("\n",
            "backend: redis",
            "redis:",
            "  uri: redis://secret@cache.internal:6380/2",
            "  refusal-cache: true",
            "  lease-tokens: 10",
            RULES), "redis.yaml")});
    return Stream.concat(examples, own);
  }

  private static final String RULES = String.join("\n",
      "rules:",
      "  - name: login",
      "    match:",
      "      path: /login",
      "    key: ip",
      "    limit: 5",
      "    period: 1m",
      "    penalty:",
      "      after: 3",
      "      within: 15m",
      "      box-for: 1h",
      "  - name: two-periods",
      "    match:",
      "      path: /api/**",
      "    key: ip",
      "    limits: [{limit: 20, period: 1s}, {limit: 1000, period: 1h}]",
      "");

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void aBuildsFingerprintsAreTheOnesMadeOneByOne(String name, RulesConfig file) {
    CountedState.OfFile ofFile = CountedState.ofFile(file);
    // twice over the rules: the second pass reads the values made once by the first
    for (int pass = 0; pass < 2; pass++) {
      for (RuleConfig rule : file.rules()) {
        if (rule.penalty() != null) {
          assertEquals(CountedState.ofFile(file).ofPenaltyBoxes(rule),
              ofFile.ofPenaltyBoxes(rule), rule.name());
        }
        budgetsOf(file, ofFile, rule, "", rule.limits());
        if (rule.plans() != null) {
          for (Map.Entry<String, List<LimitSpec>> plan : rule.plans().limits().entrySet()) {
            budgetsOf(file, ofFile, rule, plan.getKey(), plan.getValue());
          }
        }
      }
    }
  }

  private static void budgetsOf(RulesConfig file, CountedState.OfFile ofFile, RuleConfig rule,
      String plan, List<LimitSpec> limits) {
    for (LimitSpec limit : limits) {
      String id = plan + "/" + limit.periodNanos();
      assertEquals(CountedState.ofFile(file).ofBudget(rule, id, limit),
          ofFile.ofBudget(rule, id, limit),
          rule.name() + " " + id);
      assertEquals(CountedState.ofFile(file).carriedOverBy(rule, id),
          ofFile.carriedOverBy(rule, id),
          rule.name() + " " + id);
    }
  }

  private static RulesConfig parse(Path file) {
    try {
      return RulesFileParser.parse(file);
    } catch (ConfigException e) {
      throw new AssertionError(file + " does not parse: " + e.getMessage(), e);
    }
  }
}
