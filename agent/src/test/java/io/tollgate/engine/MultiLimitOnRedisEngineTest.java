package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.DecisionSource;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.stores.redis.RedisScript;
import java.util.List;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rule of three limits on {@code backend: redis}, decided by the engine: one {@code EVALSHA} per
 * request, allowed or refused (where deciding the limits one by one took one per limit, and one
 * more per refund), and a request refused by one limit leaves the others untouched.
 */
@ExtendWith(RedisServerExtension.class)
class MultiLimitOnRedisEngineTest {

  @ParameterizedTest
  @ValueSource(strings = {"token-bucket", "gcra", "fixed-window", "sliding-window", "sliding-log"})
  void oneRoundTripPerRequestWhateverTheNumberOfLimits(
      String algorithm, @PrivateRedis RedisServer server) throws Exception {
    String yaml =
        "backend: redis\nredis:\n  uri: " + server.uri() + "\n  timeout: 2s\nrules:\n"
            + "  - name: api\n    match:\n      path: /api/**\n    key: ip\n"
            + "    algorithm: " + algorithm + "\n"
            + "    limits:\n"
            + "      - { limit: 3, period: 1h }\n"
            + "      - { limit: 5, period: 2h }\n"
            + "      - { limit: 100, period: 1d }\n";
    RuleSet rules = new RuleSetFactory(Clock.system()).build(RulesFileParser.parse(yaml, "r"), null);
    FailurePolicyStore first = (FailurePolicyStore) rules.find("api").allBudgets().get(0).store();
    try {
      awaitRedis(first);
      // Every command is logged, with its arguments: the decisions' EVALSHAs are told apart from
      // the instance heartbeat's.
      server.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
      server.call("CONFIG", "SET", "slowlog-max-len", "10000");
      server.call("SLOWLOG", "RESET");
      int allowed = 0;
      for (int i = 0; i < 20; i++) {
        RuleVerdicts verdicts = send(rules, "198.51.100.7");
        assertEquals(3, verdicts.entries().size(), "a verdict per limit");
        allowed += verdicts.refused() ? 0 : 1;
      }
      assertEquals(3, allowed, "the hour's 3");
      assertEquals(20, evalshaCalls(server), "one EVALSHA per request");

      // The refused 17 took nothing from the 2 hours' limit: 5 - 3 are left, and it would allow
      // one more (which it says, as remaining 1, and then gives back with the hour's refusal).
      Verdict twoHours = send(rules, "198.51.100.7").entries().get(1).verdict;
      assertEquals(true, twoHours.allowed, twoHours.toString());
      assertEquals(1, twoHours.remaining, twoHours.toString());
    } finally {
      first.primary().backend().close();
    }
  }

  private static RuleVerdicts send(RuleSet rules, String client) {
    RuleVerdicts verdicts =
        new RequestDecider()
            .decide(
                new FakeExchange("GET", "/api/x").from(client), rules, DecisionPoint.FIRST_ENTRY,
                null);
    assertNotNull(verdicts, "decided");
    return verdicts;
  }

  /** The EVALSHAs of decisions (not of the instance heartbeat) since the slow log's reset. */
  private static long evalshaCalls(RedisServer server) {
    long calls = 0;
    for (Object entry : (List<?>) server.call("SLOWLOG", "GET", "10000")) {
      List<?> args = (List<?>) ((List<?>) entry).get(3);
      if ("EVALSHA".equalsIgnoreCase(String.valueOf(args.get(0)))
          && !RedisScript.INSTANCES.sha1().equals(String.valueOf(args.get(1)))) {
        calls++;
      }
    }
    return calls;
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
