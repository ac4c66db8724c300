package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Clock;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.CsvSource;

/** What {@code backend: redis} accepts: every algorithm, within the bounds of its Lua script. */
class RedisBackendRulesTest {

  private static List<ConfigProblem> check(String ruleLines) throws Exception {
    String yaml =
        "backend: redis\nredis:\n  uri: redis://cache.invalid:6379\nrules:\n"
            + "  - name: r\n    match:\n      path: /api/**\n    key: ip\n" + ruleLines;
    RulesConfig config = RulesFileParser.parse(yaml, "rules.yaml");
    return new RuleSetFactory(Clock.system()).check(config);
  }

  @ParameterizedTest
  @EnumSource(AlgorithmKind.class)
  void everyAlgorithmRunsOnRedis(AlgorithmKind kind) throws Exception {
    assertEquals(
        List.of(),
        check("    algorithm: " + kind.yamlName() + "\n    limit: 100\n    period: 1m\n"));
  }

  @ParameterizedTest
  @CsvSource({"fixed-window, 60d", "sliding-window, 60d", "sliding-log, 60d"})
  void aRuleBeyondItsScriptsExactRangeIsRefusedByName(String algorithm, String period)
      throws Exception {
    List<ConfigProblem> problems =
        check("    algorithm: " + algorithm + "\n    limit: 10\n    period: " + period + "\n");
    assertEquals(1, problems.size(), problems.toString());
    String message = problems.get(0).toString();
    assertTrue(message.contains("rule 'r'"), message);
    assertTrue(message.contains("2^53"), message);
  }

  @org.junit.jupiter.api.Test
  void calendarQuotasRunOnRedis() throws Exception {
    assertEquals(
        List.of(),
        check("    algorithm: fixed-window\n    limit: 1000\n    calendar: month\n"
            + "    time-zone: Europe/Paris\n"));
  }
}
