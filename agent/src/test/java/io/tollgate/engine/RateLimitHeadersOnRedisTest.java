package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of {@link RateLimitHeaderModesTest} again with {@code backend: redis}: a client reads
 * the same {@code r}, {@code t}, reset and {@code Retry-After} whether the quota is counted in the
 * app's memory or in Redis (its scripts give the next unit of quota as the algorithms do). The
 * scripts read the test's manual clock instead of Redis TIME, so the waits of the table take no
 * time.
 */
@ExtendWith(RedisServerExtension.class)
class RateLimitHeadersOnRedisTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.tollgate.engine.RateLimitHeaderModesTest#rows")
  void theSameHeadersAsLocally(
      String title, String ruleLines, String script, List<String> modesAndOutcomes,
      @PrivateRedis RedisServer server) throws Exception {
    for (int i = 0; i < modesAndOutcomes.size(); i += 2) {
      String mode = modesAndOutcomes.get(i);
      String expected = modesAndOutcomes.get(i + 1);
      server.call("FLUSHALL");
      ManualClock clock = ManualClock.atEpochMillis(RateLimitHeaderModesTest.START);
      String yaml = RateLimitHeaderModesTest.yaml(
          mode, "backend: redis\nredis:\n  uri: " + server.uri() + "\n  timeout: 2s\n", ruleLines);
      RuleSet rules =
          RuleSetFactory.withRedisReadingTheClock(clock)
              .build(RulesFileParser.parse(yaml, "rules.yaml"), null);
      FailurePolicyStore store = (FailurePolicyStore) rules.find("api").allBudgets().get(0).store();
      try {
        awaitRedis(store);
        assertEquals(expected, RateLimitHeaderModesTest.run(clock, rules, script),
            title + ", headers: " + mode + ", backend: redis");
      } finally {
        store.primary().backend().close();
      }
    }
  }

  /** Waits (up to 30 s) for the rule's backend to answer: the connection opens in the background. */
  static void awaitRedis(FailurePolicyStore store) throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (store.decideWithSource("connection-probe", 0, new Verdict())
          == io.tollgate.stores.redis.DecisionSource.BACKEND) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no connection to redis");
  }
}
