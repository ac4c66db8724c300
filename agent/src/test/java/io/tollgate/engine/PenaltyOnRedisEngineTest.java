package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.DecisionSource;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The engine with a penalised rule on {@code backend: redis}, as two app instances: a client's
 * refusals on either instance fill one box, both refuse the boxed client, and when Redis dies every
 * request is still decided by the rule's {@code on-failure}.
 */
@ExtendWith(RedisServerExtension.class)
class PenaltyOnRedisEngineTest {

  private static final long MIN = TimeUnit.MINUTES.toNanos(1);

  @Test
  void twoInstancesBoxTogetherAndStillDecideWhenRedisDies(@PrivateRedis RedisServer server)
      throws Exception {
    String yaml =
        "backend: redis\nredis:\n  uri: " + server.uri() + "\n  timeout: 2s\nrules:\n"
            + "  - name: login\n    match:\n      path: /login\n    key: ip\n"
            + "    limit: 1\n    period: 1m\n"
            + "    penalty: { after: 3, within: 1m, box-for: 15m }\n";
    RuleSet a = new RuleSetFactory(Clock.system()).build(RulesFileParser.parse(yaml, "a"), null);
    RuleSet b = new RuleSetFactory(Clock.system()).build(RulesFileParser.parse(yaml, "b"), null);
    try {
      awaitRedis(a);
      awaitRedis(b);

      assertTrue(send(a, "198.51.100.1").allowed, "the one request a minute");
      Verdict first = send(b, "198.51.100.1");
      assertFalse(first.allowed, "refused on the shared limit, by the other instance");
      assertTrue(first.retryAfterNanos <= MIN, first.toString());
      assertFalse(send(a, "198.51.100.1").allowed);
      Verdict third = send(b, "198.51.100.1");
      assertEquals(15 * MIN, third.retryAfterNanos, "the third refusal in all fills the box");

      Verdict boxedOnA = send(a, "198.51.100.1");
      assertFalse(boxedOnA.allowed);
      assertTrue(
          boxedOnA.retryAfterNanos > MIN && boxedOnA.retryAfterNanos <= 15 * MIN,
          "boxed on the other instance too: " + boxedOnA);
      assertTrue(send(a, "198.51.100.2").allowed, "another client is not boxed");

      server.kill();
      for (int i = 0; i < 5; i++) {
        for (RuleSet instance : new RuleSet[] {a, b}) {
          Verdict verdict = send(instance, "198.51.100.3");
          assertTrue(verdict.allowed, "on-failure: allow, with the penalty skipped: " + verdict);
          assertTrue(verdict.backendUnavailable);
        }
      }
    } finally {
      close(a);
      close(b);
    }
  }

  private static Verdict send(RuleSet rules, String client) {
    RuleVerdicts verdicts =
        new RequestDecider()
            .decide(
                new FakeExchange("POST", "/login").from(client),
                rules,
                DecisionPoint.FIRST_ENTRY,
                null);
    assertNotNull(verdicts, "decided");
    assertEquals(1, verdicts.entries().size());
    return verdicts.entries().get(0).verdict;
  }

  /** Waits (up to 30 s) for the rule's backend to answer: the connection opens in the background. */
  private static void awaitRedis(RuleSet rules) throws InterruptedException {
    FailurePolicyStore store = (FailurePolicyStore) rules.find("login").store();
    for (int i = 0; i < 300; i++) {
      if (store.decideWithSource("connection-probe", 1, new Verdict()) == DecisionSource.BACKEND) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no connection to redis");
  }

  private static void close(RuleSet rules) {
    ((FailurePolicyStore) rules.find("login").store()).primary().backend().close();
  }
}
