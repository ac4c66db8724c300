package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The engine across a reload of the rules (local backend): a changed limit keeps what each key had
 * used, on a rule of one limit and on one of several, and an unchanged rule keeps its very store.
 */
class ReloadKeepsWhatWasUsedTest {

  private static RuleSet build(RuleSetFactory factory, String limits, RuleSet previous)
      throws Exception {
    String yaml =
        "rules:\n  - name: api\n    match:\n      path: /api/**\n    key: ip\n"
            + "    algorithm: ALG\n" + limits;
    return factory.build(RulesFileParser.parse(yaml.replace("ALG", algorithm), "r"), previous);
  }

  private static String algorithm = "token-bucket";

  private static int passing(RuleSet rules, int tries) {
    int passed = 0;
    for (int i = 0; i < tries; i++) {
      RuleVerdicts verdicts =
          new RequestDecider()
              .decide(
                  new FakeExchange("GET", "/api/x").from("198.51.100.9"), rules,
                  DecisionPoint.FIRST_ENTRY, null);
      assertNotNull(verdicts);
      passed += verdicts.refused() ? 0 : 1;
    }
    return passed;
  }

  @ParameterizedTest(name = "{0}: {2} used, then {3}: {4} pass")
  @CsvSource(
      delimiter = '|',
      value = {
        "token-bucket   | '    limit: 10\n    period: 1h\n' | 10 | '    limit: 5\n    period: 1h\n'  | 0",
        "token-bucket   | '    limit: 4\n    period: 1h\n'  | 4  | '    limit: 8\n    period: 1h\n'  | 4",
        "fixed-window   | '    limit: 10\n    period: 1h\n' | 7  | '    limit: 8\n    period: 1h\n'  | 1",
        "sliding-log    | '    limit: 10\n    period: 1h\n' | 10 | '    limit: 10\n    period: 1d\n' | 0",
        // several limits: the hour's 6 of 6 stay used when the day's limit changes
        "token-bucket   | '    limits:\n      - {limit: 6, period: 1h}\n      - {limit: 100, period: 1d}\n' | 6"
            + " | '    limits:\n      - {limit: 6, period: 1h}\n      - {limit: 50, period: 1d}\n' | 0",
        "gcra           | '    limits:\n      - {limit: 6, period: 1h}\n      - {limit: 100, period: 1d}\n' | 6"
            + " | '    limits:\n      - {limit: 8, period: 1h}\n      - {limit: 9, period: 1d}\n' | 2",
        "sliding-window | '    limits:\n      - {limit: 6, period: 1h}\n      - {limit: 100, period: 1d}\n' | 6"
            + " | '    limits:\n      - {limit: 20, period: 1h}\n      - {limit: 7, period: 1d}\n' | 1",
      })
  void aChangedLimitKeepsWhatWasUsed(
      String kind, String before, int used, String after, int passing) throws Exception {
    algorithm = kind;
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    RuleSet first = build(factory, before.replace("\\n", "\n"), null);
    assertEquals(used, passing(first, used));
    RuleSet second = build(factory, after.replace("\\n", "\n"), first);
    assertEquals(passing, passing(second, passing + 3));
  }

  @Test
  void anUnchangedRuleOfSeveralLimitsKeepsItsGroup() throws Exception {
    algorithm = "token-bucket";
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    String limits = "    limits:\n      - {limit: 3, period: 1h}\n      - {limit: 100, period: 1d}\n";
    RuleSet first = build(factory, limits, null);
    assertEquals(3, passing(first, 5));
    RuleSet second = build(factory, limits, first);
    assertSame(
        first.find("api").allBudgets().get(0).group(),
        second.find("api").allBudgets().get(0).group());
    assertEquals(0, passing(second, 2));
  }
}
