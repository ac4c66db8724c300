package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.config.CountedState.OnChange;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A short file's budgets and penalty boxes get their fingerprints when a reload compares them, a
 * long file's at the build ({@link RuleSetFactory#LATE_FINGERPRINTS_UP_TO}): a reload tells a
 * changed rule from an unchanged one alike either way, and across a reload from one kind of file
 * to the other.
 * ({@code CountedStateTest} proves every setting's row on short files.)
 */
class FingerprintsWhenComparedTest {

  private static final int SHORT = 0;
  private static final int LONG = RuleSetFactory.LATE_FINGERPRINTS_UP_TO;

  @ParameterizedTest(name = "{0} other rules, then {1}; api changed to ''{2}'': {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // others before | others after | api's line changed | what the budget's counts do
        "SHORT | SHORT | limit: 10     | KEEPS_COUNTS",
        "SHORT | SHORT | limit: 20     | CARRIES_COUNTS_OVER",
        "SHORT | SHORT | key: global   | STARTS_AFRESH",
        "LONG  | LONG  | limit: 10     | KEEPS_COUNTS",
        "LONG  | LONG  | limit: 20     | CARRIES_COUNTS_OVER",
        "LONG  | LONG  | key: global   | STARTS_AFRESH",
        "SHORT | LONG  | limit: 10     | KEEPS_COUNTS",
        "SHORT | LONG  | limit: 20     | CARRIES_COUNTS_OVER",
        "LONG  | SHORT | limit: 10     | KEEPS_COUNTS",
        "LONG  | SHORT | key: global   | STARTS_AFRESH",
      })
  void aReloadComparesTheSameFingerprints(
      String before, String after, String change, OnChange expected) throws Exception {
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    RulesConfig first = RulesFileParser.parse(file(others(before), "limit: 10"), "before.yaml");
    RulesConfig second = RulesFileParser.parse(file(others(after), change), "after.yaml");
    RuleSet was = factory.build(first, null);
    factory.applied();
    RuleSet now = factory.build(second, was);
    factory.applied();
    assertEquals(expected,
        CountedStateTest.whatHappenedToTheBudgets(was.find("api"), now.find("api")));
  }


  @ParameterizedTest(name = "{0} other rules, then {1}; penalty after {2}: boxes kept {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // others before | others after | api's penalty `after` now (was 3) | boxes kept
        "SHORT | SHORT | 3 | true",
        "SHORT | SHORT | 4 | false",
        "LONG  | LONG  | 3 | true",
        "LONG  | LONG  | 4 | false",
        "SHORT | LONG  | 3 | true",
        "SHORT | LONG  | 4 | false",
        "LONG  | SHORT | 3 | true",
        "LONG  | SHORT | 4 | false",
      })
  void aReloadKeepsThePenaltyBoxesOfTheSamePenalty(
      String before, String after, int penaltyAfter, boolean kept) throws Exception {
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    RulesConfig first = RulesFileParser.parse(
        withPenalty(file(others(before), "limit: 10"), 3), "before.yaml");
    RulesConfig second = RulesFileParser.parse(
        withPenalty(file(others(after), "limit: 10"), penaltyAfter), "after.yaml");
    RuleSet was = factory.build(first, null);
    factory.applied();
    RuleSet now = factory.build(second, was);
    factory.applied();
    if (kept) {
      assertSame(was.find("api").penalty(), now.find("api").penalty());
    } else {
      assertNotSame(was.find("api").penalty(), now.find("api").penalty());
    }
  }

  /** The file with a penalty on its last rule, {@code api}, boxing a key after n refusals. */
  private static String withPenalty(String file, int after) {
    return file + "    penalty:\n      after: " + after + "\n      within: 10m\n"
        + "      box-for: 1h\n";
  }

  private static int others(String kind) {
    return kind.equals("LONG") ? LONG : SHORT;
  }

  /** The rule {@code api} (key ip, 10 a minute, with {@code change} laid over), after n others. */
  private static String file(int others, String change) {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int i = 0; i < others; i++) {
      yaml.append("  - name: tenant-").append(i).append('\n')
          .append("    match: {path: /tenants/t").append(i).append("/**}\n")
          .append("    key: ip\n    limit: 100\n    period: 1m\n");
    }
    String key = change.startsWith("key:") ? change : "key: ip";
    String limit = change.startsWith("limit:") ? change : "limit: 10";
    yaml.append("  - name: api\n    match: {path: /api/**}\n    ")
        .append(key).append("\n    ").append(limit).append("\n    period: 1m\n");
    return yaml.toString();
  }
}
