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
    return checkWithUri("redis://cache.invalid:6379", ruleLines);
  }

  private static List<ConfigProblem> checkWithUri(String uri, String ruleLines) throws Exception {
    String yaml =
        "backend: redis\nredis:\n  uri: '" + uri + "'\nrules:\n"
            + "  - name: r\n    match:\n      path: /api/**\n    key: ip\n" + ruleLines;
    RulesConfig config = RulesFileParser.parse(yaml, "rules.yaml");
    return new RuleSetFactory(Clock.system()).check(config);
  }

  /**
   * An address the Redis client would refuse is reported where validate and a reload see it,
   * with its line and without its password, instead of leaving the agent with no rules.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "redis://127.0.0.1:99999                   | Port out of range: 99999",
        "redis://:p@ss/w#rd@127.0.0.1:16392        | must be percent-encoded",
        "redis://:topsecret pw@127.0.0.1:16390     | must be percent-encoded",
      })
  void anAddressTheClientWouldRefuseIsAProblemOnItsLine(String uri, String said) throws Exception {
    List<ConfigProblem> problems = checkWithUri(uri, "    limit: 10\n    period: 1s\n");
    assertEquals(1, problems.size(), problems.toString());
    String message = problems.get(0).toString();
    assertTrue(message.contains(said), message);
    assertTrue(message.contains("rules.yaml") && message.contains("line 3"), message);
    assertTrue(!message.contains("topsecret") && !message.contains("w#rd"), message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
    "redis://:p%40ss%2Fw%23rd@127.0.0.1:16392",
    "rediss://user:secret@cache.example:6380/2",
    "redis-sentinel://sentinel-a:26379,sentinel-b:26379/0#mymaster",
      })
  void wellFormedAddressesPass(String uri) throws Exception {
    assertEquals(List.of(), checkWithUri(uri, "    limit: 10\n    period: 1s\n"));
  }

  /** Every algorithm but adaptive-concurrency, local by nature (see AdaptiveConcurrencyRulesTest). */
  @ParameterizedTest
  @EnumSource(value = AlgorithmKind.class, names = "ADAPTIVE_CONCURRENCY",
      mode = EnumSource.Mode.EXCLUDE)
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
