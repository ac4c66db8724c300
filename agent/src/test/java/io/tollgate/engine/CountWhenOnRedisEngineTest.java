package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.DecisionSource;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count-when} on {@code backend: redis}, through the stores the agent builds (the failure
 * policy, the refusal cache, the Lua scripts) on a real Redis: for every algorithm that can give a
 * charge back, with one limit and with two decided as one group, ten successes are each charged
 * and given back, three failures are counted, and the fourth is refused.
 */
@ExtendWith(RedisServerExtension.class)
class CountWhenOnRedisEngineTest {

  static Stream<Arguments> algorithmsAndLimits() {
    List<Arguments> all = new ArrayList<>();
    for (String algorithm :
        new String[] {"token-bucket", "gcra", "fixed-window", "sliding-window", "sliding-log"}) {
      all.add(Arguments.of(algorithm, "limit: 3\n    period: 1h"));
      all.add(Arguments.of(algorithm, "limits: [{limit: 3, period: 1h}, {limit: 4, period: 2h}]"));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("algorithmsAndLimits")
  void successesAreGivenBackOnRedisAndTheFourthFailureIsRefused(
      String algorithm, String limits, RedisServer server) throws Exception {
    String name = "login-" + Long.toString(System.nanoTime(), 36);
    String yaml =
        "backend: redis\nredis:\n  uri: " + server.uri() + "\n  timeout: 2s\nrules:\n"
            + "  - name: " + name + "\n    match: { path: /login }\n    key: ip\n"
            + "    algorithm: " + algorithm + "\n"
            + "    count-when: [401, 403]\n"
            + "    " + limits + "\n";
    RuleSet rules = new RuleSetFactory(Clock.system()).build(RulesFileParser.parse(yaml, "r"), null);
    FailurePolicyStore first = (FailurePolicyStore) rules.find(name).allBudgets().get(0).store();
    try {
      awaitRedis(first);
      List<String> outcomes = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        outcomes.add(send(rules, 200));
      }
      outcomes.add(send(rules, 401));
      outcomes.add(send(rules, 403));
      outcomes.add(send(rules, 401));
      outcomes.add(send(rules, 401));
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        expected.add("allowed");
      }
      expected.add("allowed");
      expected.add("allowed");
      expected.add("allowed");
      expected.add("refused");
      assertEquals(expected, outcomes);
    } finally {
      first.primary().backend().close();
    }
  }

  /** One request from one client whose application answers {@code status}; how it was decided. */
  private static String send(RuleSet rules, int status) {
    CountWhenEngineTest.StatusExchange exchange =
        new CountWhenEngineTest.StatusExchange("POST", "/login").from("198.51.100.7");
    exchange.status = status;
    RuleVerdicts verdicts =
        new RequestDecider().decide(exchange, rules, DecisionPoint.FIRST_ENTRY, null);
    if (verdicts.refused()) {
      return "refused";
    }
    verdicts.requestEnded(exchange.responseStatus(false), exchange::responseHeader);
    return "allowed";
  }

  /** Waits (up to 30 s) for the rule's backend to answer: the connection opens in the background. */
  private static void awaitRedis(FailurePolicyStore store) throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (store.decideWithSource("connection-probe", 1, new Verdict()) == DecisionSource.BACKEND) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no connection to redis");
  }
}
