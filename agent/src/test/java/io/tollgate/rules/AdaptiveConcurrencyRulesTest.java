package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An adaptive-concurrency rule as the agent builds it: local only, 503, no quota headers. */
class AdaptiveConcurrencyRulesTest {

  private static final String RULE =
      "rules:\n"
          + "  - name: guard\n"
          + "    algorithm: adaptive-concurrency\n"
          + "    key: global\n";

  @Test
  void itIsRefusedWithBackendRedisNamingTheRuleAndLines() throws Exception {
    RulesConfig config = RulesFileParser.parse(
        "backend: redis\nredis:\n  uri: redis://cache.invalid:6379\n" + RULE, "rules.yaml");
    List<ConfigProblem> problems = RuleSetFactory.withoutConnecting(Clock.system()).check(config);
    assertEquals(1, problems.size(), problems.toString());
    String message = problems.get(0).toString();
    assertEquals(6, problems.get(0).line(), message);
    assertTrue(message.contains("rule 'guard'") && message.contains("backend: redis")
        && message.contains("(line 1)") && message.contains("instance"), message);
  }

  @Test
  void itRefusesWith503AndNoQuotaHeadersUnlessItsResponseSaysOtherwise() throws Exception {
    RuleSet rules = RuleSetFactory.withoutConnecting(Clock.system())
        .build(RulesFileParser.parse(RULE, "rules.yaml"), null);
    Rule guard = rules.find("guard");
    assertEquals(503, guard.refusalBody().status(false));
    assertFalse(guard.showsQuotaHeaders());
    assertTrue(guard.releasesAtEnd() && guard.learnsFromLatency());
    assertFalse(guard.holdsWhenRefused(), "only in shadow mode");

    RuleSet own = RuleSetFactory.withoutConnecting(Clock.system()).build(RulesFileParser.parse(
        "mode: shadow\nresponse:\n  status: 429\n" + RULE, "rules.yaml"), null);
    assertEquals(429, own.find("guard").refusalBody().status(false));
    assertTrue(own.find("guard").holdsWhenRefused(), "in shadow mode, every request runs");
  }
}
