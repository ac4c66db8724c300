package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tollgate.config.RedisSettings;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No request is held by the agent for more than {@link RequestHold#MAX_SECONDS} seconds in all:
 * a pacing delay is cut to what is left, and once nothing is left the rules still to decide are
 * not decided (the request passes them).
 */
class RequestHoldTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "held {0} s, pacing {1} s: waits {2} s")
  @CsvSource({
    "0,  10, 10",
    "25, 10, 5",
    "30, 10, 0",
    "40, 10, 0",
    "29, 0,  0",
  })
  void pacingIsCutToWhatIsLeft(long heldSeconds, long delaySeconds, long waitsSeconds) {
    assertEquals(seconds(waitsSeconds), RequestHold.pacing(seconds(delaySeconds), seconds(heldSeconds)));
  }

  /** The rules file may let one Redis decision wait (redis.max-wait) as long as the hold, no longer. */
  @Test
  void theLongestRedisMaxWaitIsTheHold() {
    assertEquals(RequestHold.MAX_NANOS, RedisSettings.MAX_MAX_WAIT_NANOS);
  }

  @Test
  void aRequestHeldToTheCapIsNotDecidedAnyMore() throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - name: hello",
        "    match:",
        "      path: /hello",
        "    limit: 5",
        "    period: 1m",
        "").getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    RuleSet ruleSet = holder.current();
    RequestDecider decider = new RequestDecider();
    long now = System.nanoTime();

    assertNotNull(decider.decide(FakeExchange.get("/hello"), ruleSet, DecisionPoint.FIRST_ENTRY,
        null, null, false, RequestHold.deadline(now, seconds(20))), "10 s left: decided");
    assertNull(decider.decide(FakeExchange.get("/hello"), ruleSet, DecisionPoint.FIRST_ENTRY,
        null, null, false, RequestHold.deadline(now, seconds(31))), "held past the cap: not decided");
  }

  private static long seconds(long s) {
    return s * 1_000_000_000L;
  }
}
