package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigProblem;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.redis.DecisionSource;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rules file's {@code penalty} is counted where its {@code backend} says: with {@code backend:
 * redis}, two instances loading the same file count one key's refusals together and both refuse
 * the boxed key; with {@code backend: local}, each instance counts its own.
 */
@ExtendWith(RedisServerExtension.class)
class PenaltyOnRedisRulesTest {

  private static final long MIN = TimeUnit.MINUTES.toNanos(1);

  private static String rules(String backend, String rule, String penalty) {
    return "backend: " + backend + "\n"
        + (backend.equals("redis") ? "redis:\n  uri: redis-uri\n  timeout: 2s\n" : "")
        + "rules:\n"
        + "  - name: " + rule + "\n    match:\n      path: /login\n    key: ip\n"
        + "    limit: 5\n    period: 1m\n    penalty: " + penalty + "\n";
  }

  private static RulesConfig parse(String yaml) throws Exception {
    return RulesFileParser.parse(yaml, "rules.yaml");
  }

  @Test
  void withBackendRedisTwoInstancesShareThePenalty(RedisServer server) throws Exception {
    String rule = "login-" + Long.toString(System.nanoTime(), 36);
    String yaml =
        rules("redis", rule, "{ after: 3, within: 1m, box-for: 15m }")
            .replace("redis-uri", server.uri());
    RuleSet instanceA = new RuleSetFactory(Clock.system()).build(parse(yaml), null);
    RuleSet instanceB = new RuleSetFactory(Clock.system()).build(parse(yaml), null);
    try {
      awaitRedis(instanceA.find(rule));
      awaitRedis(instanceB.find(rule));
      PenaltyTracker a = instanceA.find(rule).penalty();
      PenaltyTracker b = instanceB.find(rule).penalty();

      a.record("203.0.113.7", refusal());
      b.record("203.0.113.7", refusal());
      assertFalse(a.check("203.0.113.7", new Verdict()), "two refusals in all");
      Verdict third = refusal();
      b.record("203.0.113.7", third);
      assertEquals(15 * MIN, third.retryAfterNanos, "the third refusal in all fills the box");

      Verdict onA = new Verdict();
      assertTrue(a.check("203.0.113.7", onA), "boxed on the instance that counted 1 of 3");
      assertTrue(onA.retryAfterNanos > 0 && onA.retryAfterNanos <= 15 * MIN, onA.toString());
    } finally {
      close(instanceA.find(rule));
      close(instanceB.find(rule));
    }
  }

  @Test
  void withBackendLocalEachInstanceCountsItsOwn() throws Exception {
    String yaml = rules("local", "login", "{ after: 3, within: 1m, box-for: 15m }");
    PenaltyTracker a = new RuleSetFactory(Clock.system()).build(parse(yaml), null).find("login").penalty();
    PenaltyTracker b = new RuleSetFactory(Clock.system()).build(parse(yaml), null).find("login").penalty();
    a.record("k", refusal());
    a.record("k", refusal());
    b.record("k", refusal());
    assertFalse(a.check("k", new Verdict()));
    assertFalse(b.check("k", new Verdict()));
    a.record("k", refusal());
    assertTrue(a.check("k", new Verdict()));
    assertFalse(b.check("k", new Verdict()));
  }

  @Test
  void aPenaltyBeyondTheScriptsExactRangeIsRefusedByName() throws Exception {
    String yaml =
        rules("redis", "login", "{ after: 3, within: 1m, box-for: 60d }")
            .replace("redis-uri", "redis://cache.invalid:6379");
    List<ConfigProblem> problems = new RuleSetFactory(Clock.system()).check(parse(yaml));
    assertEquals(1, problems.size(), problems.toString());
    String message = problems.get(0).toString();
    assertTrue(message.contains("rule 'login'") && message.contains("2^53"), message);

    String fits = yaml.replace("box-for: 60d", "box-for: 30d");
    assertEquals(List.of(), new RuleSetFactory(Clock.system()).check(parse(fits)));
  }

  private static Verdict refusal() {
    Verdict verdict = new Verdict();
    verdict.refuse(0, TimeUnit.SECONDS.toNanos(12), TimeUnit.SECONDS.toNanos(12));
    return verdict;
  }

  /** Waits (up to 30 s) for the rule's backend to answer: the connection opens in the background. */
  private static void awaitRedis(Rule rule) throws InterruptedException {
    FailurePolicyStore store = (FailurePolicyStore) rule.store();
    for (int i = 0; i < 300; i++) {
      if (store.decideWithSource("connection-probe", 1, new Verdict()) == DecisionSource.BACKEND) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no connection to redis for rule " + rule);
  }

  private static void close(Rule rule) {
    ((FailurePolicyStore) rule.store()).primary().backend().close();
  }
}
