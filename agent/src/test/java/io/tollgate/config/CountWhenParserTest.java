package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A rule's {@code count-when:}: each way of writing it and what it is read as, then each broken
 * one refused with exactly one problem on the line given, whose message has every word given.
 */
class CountWhenParserTest {

  /** A rule r1 (5 a minute) whose third line onwards are {@code lines}: line 5 is the first. */
  static String rule(String... lines) {
    List<String> all =
        new ArrayList<>(Arrays.asList("rules:", "  - name: r1", "    limit: 5", "    period: 1m"));
    for (String l : lines) {
      all.add("    " + l);
    }
    return String.join("\n", all) + "\n";
  }

  static RuleConfig parseOne(String yaml) throws ConfigException {
    return RulesFileParser.parse(yaml, "rules.yaml").rules().get(0);
  }

  static Stream<Arguments> readings() {
    return Stream.of(
        Arguments.of("count-when: [401, 403]", "[401, 403]"),
        Arguments.of("count-when: 401", "[401]"),
        Arguments.of("count-when: failure", "[failure]"),
        Arguments.of("count-when: [4xx]", "[4xx]"),
        Arguments.of("count-when: [5XX, 429]", "[5xx, 429]"),
        Arguments.of("count-when: [failure, 302]", "[failure, 302]"),
        Arguments.of("count-when: ['401', \"403\"]", "[401, 403]"),
        Arguments.of("count-when: [100, 599]", "[100, 599]"),
        Arguments.of("count-when: [1xx, 2xx, 3xx]", "[1xx, 2xx, 3xx]"));
  }

  @ParameterizedTest(name = "{0} is read as {1}")
  @MethodSource("readings")
  void isReadAs(String line, String canonical) throws Exception {
    CountWhen countWhen = parseOne(rule(line)).countWhen();
    assertEquals(canonical, countWhen.toString());
  }

  @Test
  void aRuleWithoutCountWhenCountsEveryRequest() throws Exception {
    assertNull(parseOne(rule()).countWhen());
  }

  @Test
  void itGoesWithEveryAlgorithmThatCanGiveAChargeBackAndWithCostHeader() throws Exception {
    for (String algorithm :
        new String[] {"token-bucket", "gcra", "fixed-window", "sliding-window", "sliding-log"}) {
      RuleConfig r =
          parseOne(rule("algorithm: " + algorithm, "count-when: [401]", "cost-header: X-Cost"));
      assertEquals("[401]", r.countWhen().toString(), algorithm);
      assertEquals("X-Cost", r.costHeader(), algorithm);
    }
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> corpus() {
    return Stream.of(
        broken("a status above 599", rule("count-when: [401, 600]"), 5, "600 is not a response status", "100 to 599"),
        broken("a status below 100", rule("count-when: 99"), 5, "99 is not a response status"),
        broken("a class above 5xx", rule("count-when: [6xx]"), 5, "'6xx' is not a class", "1xx to 5xx"),
        broken("a misspelt failure", rule("count-when: failures"), 5, "unknown value 'failures'", "did you mean 'failure'?"),
        broken("a class with one x", rule("count-when: [4x]"), 5, "unknown value '4x'", "did you mean '4xx'?"),
        broken("a word that is nothing", rule("count-when: [401, success]"), 5, "unknown value 'success'", "401", "4xx", "failure"),
        broken("an empty list", rule("count-when: []"), 5, "empty list", "[401, 403]"),
        broken("nothing at all", rule("count-when:"), 5, "count-when must be", "got nothing"),
        broken("a mapping", rule("count-when: { status: 401 }"), 5, "count-when must be", "got a mapping"),
        broken("a list inside the list", rule("count-when: [[401]]"), 5, "items must be statuses", "got a list"),
        broken("an item on its own line", rule("count-when:", "  - 401", "  - 4o3"), 7, "unknown value '4o3'"),
        broken("a misspelt key", rule("count-wen: [401]"), 5, "unknown key 'count-wen'", "did you mean 'count-when'?"),
        broken("a concurrency rule, by name and line",
            String.join("\n", "rules:", "  - name: logins-in-flight", "    algorithm: concurrency",
                "    limit: 5", "    period: 1m", "    count-when: [401]") + "\n",
            6, "rule 'logins-in-flight'", "count-when does not apply to the concurrency algorithm",
            "cannot give a charge back", "sliding-log"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void isRefusedWithOneClearProblem(String what, String yaml, int line, String[] words) {
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml"), what);
    List<ConfigProblem> problems = e.problems();
    if (problems.size() != 1) {
      fail("expected exactly one problem, got:\n" + e.getMessage());
    }
    ConfigProblem p = problems.get(0);
    assertEquals(line, p.line(), () -> "line of: " + p);
    for (String word : words) {
      assertTrue(
          p.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          () -> "'" + word + "' missing from: " + p);
    }
  }
}
