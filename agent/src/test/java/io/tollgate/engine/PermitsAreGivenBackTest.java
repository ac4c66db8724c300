package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A concurrency permit, once taken, is given back however the request goes on: refused, ended,
 * or failed inside the agent between the decision and the point where its end is registered
 * (the failure lets the request through, and must not keep its permit for ever, which would
 * refuse every later request of its key).
 */
class PermitsAreGivenBackTest {

  @TempDir Path dir;
  private TollgateGate engine;

  @BeforeEach
  void oneReportAtATime() throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - name: one-report-at-a-time",
        "    match:",
        "      path: /report",
        "    key: ip",
        "    algorithm: concurrency",
        "    limit: 1",
        "    period: 1m",
        "  - name: reports-per-tenant",
        "    match:",
        "      path: /report",
        "    key: header:X-Tenant",
        "    limit: 100",
        "    period: 1m",
        "").getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    engine = new TollgateGate(holder);
  }

  /** Where the agent fails, after the first rule took the request's permit. */
  enum Failure {
    /** The second rule's key cannot be read: the decision itself fails. */
    DECIDING_A_LATER_RULE,
    /** The quota headers cannot be set: the decision is taken, its outcome cannot be applied. */
    SETTING_THE_QUOTA_HEADERS,
  }

  @ParameterizedTest(name = "failing while {0}")
  @EnumSource(Failure.class)
  void aRequestThatFailedInsideTheAgentGivesItsPermitBack(Failure where) {
    FakeExchange failing = report();
    if (where == Failure.DECIDING_A_LATER_RULE) {
      failing.failingHeader = "X-Tenant";
    } else {
      failing.responseRejectsHeaders = true;
    }

    assertThrows(IllegalStateException.class, () -> engine.outermostEntry(failing));

    RequestScope next = engine.outermostEntry(report());
    assertNotSame(RequestScope.REFUSED, next, "the failed request's permit was given back");
    engine.requestEnded(next);
  }

  @Test
  void aPermitIsHeldUntilItsRequestEndsAndNoLonger() {
    RequestScope first = engine.outermostEntry(report());

    assertSame(RequestScope.REFUSED, engine.outermostEntry(report()), "while the first runs");
    engine.requestEnded(first);
    RequestScope after = engine.outermostEntry(report());
    assertNotSame(RequestScope.REFUSED, after, "once it has ended");
    engine.requestEnded(after);
  }

  @Test
  void aFrameworkAloneOnAServerTollgateDoesNotKnowGivesBackAtOnce() {
    // Jersey on the JDK's HTTP server: every rule at its handler, and no end reported
    assertSame(false, engine.handlerEntry(report(), true));
    assertSame(false, engine.handlerEntry(report(), true), "the first gave its permit back");
  }

  @Test
  void onGrizzlyThePermitIsHeldUntilTheServersRequestEnds() {
    engine.serverRequestStarted("203.0.113.7");
    assertSame(false, engine.handlerEntry(report(), true));
    engine.serverRequestEnded();
    engine.serverRequestStarted("203.0.113.7");
    assertSame(false, engine.handlerEntry(report(), true), "given back at the first's end");
    assertSame(true, engine.handlerEntry(report(), true), "held while the second runs");
    engine.serverRequestEnded();
  }

  private static FakeExchange report() {
    return FakeExchange.get("/report").header("X-Tenant", "acme");
  }
}
