package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code algorithm: adaptive-concurrency} in the rules file: its settings, defaults and mistakes. */
class AdaptiveConcurrencyConfigTest {

  /** An adaptive rule (its line 2), with {@code extra} lines from line 6 on. */
  static String rule(String... extra) {
    List<String> lines = new ArrayList<>(Arrays.asList(
        "rules:",
        "  - name: guard",
        "    algorithm: adaptive-concurrency",
        "    match: {path: /api/**}",
        "    key: global"));
    lines.addAll(Arrays.asList(extra));
    return String.join("\n", lines) + "\n";
  }

  static Stream<Arguments> settings() {
    return Stream.of(
        // extra lines, min, initial, max, max-wait ms
        Arguments.of("nothing: the defaults", new String[0], 4, 20, 200, 0),
        Arguments.of("all four", new String[] {
            "    min: 2", "    initial: 10", "    max: 50", "    max-wait: 250ms"}, 2, 10, 50, 250),
        Arguments.of("a small max pulls the defaults under it", new String[] {"    max: 3"},
            3, 3, 3, 0),
        Arguments.of("a large min pushes them over it", new String[] {"    min: 300"},
            300, 300, 300, 0),
        Arguments.of("an initial over the default max raises max", new String[] {"    initial: 500"},
            4, 500, 500, 0),
        Arguments.of("max-wait at its cap", new String[] {"    max-wait: 10s"}, 4, 20, 200, 10_000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("settings")
  void settingsAndDefaults(String what, String[] extra, int min, int initial, int max, long waitMs)
      throws ConfigException {
    RuleConfig r = RulesFileParser.parse(rule(extra), "rules.yaml").rules().get(0);
    assertEquals(AlgorithmKind.ADAPTIVE_CONCURRENCY, r.algorithm());
    assertEquals(List.of(min, initial, max, waitMs),
        List.of(r.adaptiveMin(), r.adaptiveInitial(), r.adaptiveMax(), r.maxWaitNanos() / 1_000_000));
    assertFalse(r.quotaHeadersOrDefault(), "no quota headers");
    assertTrue(r.toString().contains("min=" + min + ", initial=" + initial + ", max=" + max),
        r.toString());
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        broken("min over max", rule("    min: 50", "    max: 10"), 6,
            "rule 'guard'", "min (50) is more than max (10)"),
        broken("initial under min", rule("    min: 5", "    initial: 2"), 7,
            "initial (2) is less than min (5)"),
        broken("initial over max", rule("    initial: 300", "    max: 100"), 6,
            "initial (300) is more than max (100)"),
        broken("a zero min", rule("    min: 0"), 6, "min must be a positive integer"),
        broken("a max too large", rule("    max: 1000000"), 6, "max must be", "at most 100000"),
        broken("max-wait too long", rule("    max-wait: 11s"), 6,
            "max-wait must be at most 10s", "server thread"),
        broken("max-wait not a duration", rule("    max-wait: soon"), 6, "max-wait"),
        broken("a limit", rule("    limit: 100"), 6,
            "limit does not apply to the adaptive-concurrency algorithm", "'max'"),
        broken("a period", rule("    period: 1s"), 6,
            "period does not apply to the adaptive-concurrency algorithm", "in flight"),
        broken("a cost", rule("    cost: 5"), 6, "cost does not apply", "one permit"),
        broken("max-delay instead of max-wait", rule("    max-delay: 1s"), 6,
            "max-delay does not apply", "max-wait"),
        broken("a penalty", rule("    penalty: {after: 3, within: 1m, box-for: 1m}"), 6,
            "penalty does not apply"),
        broken("quota headers asked for", rule("    quota-headers: true"), 6,
            "quota-headers cannot be true with adaptive-concurrency"),
        broken("max-wait on another algorithm", String.join("\n",
                "rules:", "  - name: r1", "    limit: 5", "    period: 1m", "    max-wait: 1s", ""),
            5, "max-wait applies to the adaptive-concurrency algorithm only"),
        broken("min on another algorithm", String.join("\n",
                "rules:", "  - name: r1", "    algorithm: concurrency", "    limit: 5",
                "    period: 1m", "    min: 2", ""),
            6, "min applies to the adaptive-concurrency algorithm only"),
        broken("a misspelt algorithm", String.join("\n",
                "rules:", "  - name: r1", "    algorithm: adaptive-concurency", "    max: 5", ""),
            3, "unknown algorithm", "did you mean 'adaptive-concurrency'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void mistakesAreReportedWithTheirLine(String what, String yaml, int line, String[] words) {
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml"));
    List<ConfigProblem> problems = e.problems();
    assertTrue(problems.stream().anyMatch(p -> p.line() == line), what + ": " + problems);
    ConfigProblem problem =
        problems.stream().filter(p -> p.line() == line).findFirst().orElseThrow();
    for (String word : words) {
      assertTrue(problem.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          what + ": '" + word + "' in " + problem.message());
    }
  }
}
