package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One request context per request, reused by its thread's next request when nothing is left for
 * the end of the first; never while anything may still refer to it (an end that comes later, a
 * request running inside another's). And which decisions the engine times with the clock.
 */
class RequestContextTest {

  @TempDir Path dir;
  private TollgateGate engine;

  @BeforeEach
  void rules() throws Exception {
    Path rules = dir.resolve("rules.yaml");
    Files.write(rules, String.join("\n",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 1000",
        "    period: 1m",
        "  - name: one-report-at-a-time",
        "    match:",
        "      path: /report",
        "    key: ip",
        "    algorithm: concurrency",
        "    limit: 1",
        "    period: 1m",
        "").getBytes(StandardCharsets.UTF_8));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    holder.useFile(rules.toString());
    engine = new TollgateGate(holder);
  }

  @Test
  void aThreadsNextRequestReusesTheContextOfOneThatLeftNothingForItsEnd() {
    RequestScope first = engine.outermostEntry(FakeExchange.get("/hello").from("198.51.100.1"));
    engine.requestEnded(first);
    assertNull(engine.currentRequest(), "no request is current between two");

    FakeExchange second = FakeExchange.get("/hello").from("198.51.100.2");
    RequestScope next = engine.outermostEntry(second);

    assertSame(first, next, "the same context");
    assertSame(second, next.exchange(), "filled with the new request");
    assertEquals(1, next.verdicts.size(), "only the new request's verdict");
    assertEquals("198.51.100.2", next.verdicts.entry(0).key);
    assertSame(next, engine.currentRequest());
    engine.requestEnded(next);
  }

  @Test
  void anEntryPointLooksTheThreadsContextUpOnceForBothQuestions() {
    // none on a thread's first request; the test thread may have served others' before
    RequestScope before = engine.threadContext();
    assertEquals(false, TollgateGate.isServing(before), "no request under way");
    RequestScope first =
        engine.outermostEntry(FakeExchange.get("/hello").from("198.51.100.1"), before);
    RequestScope serving = engine.threadContext();
    assertSame(first, serving, "kept by the thread");
    assertEquals(true, TollgateGate.isServing(serving), "a request under way: part of it");
    engine.requestEnded(first);

    RequestScope idle = engine.threadContext();
    assertEquals(false, TollgateGate.isServing(idle), "between two requests");
    FakeExchange second = FakeExchange.get("/hello").from("198.51.100.2");
    RequestScope next = engine.outermostEntry(second, idle);
    assertSame(first, next, "the idle context given is the one reused");
    assertSame(second, next.exchange());
    assertEquals("198.51.100.2", next.verdicts.entry(0).key, "only the new request's verdict");
    engine.requestEnded(next);
  }

  @Test
  void aRequestWhoseEndComesLaterKeepsItsContext() {
    LaterEnd exchange = new LaterEnd("/report");
    RequestScope first = engine.outermostEntry(exchange);
    engine.requestEnded(first); // an asynchronous request: its end is registered, not run

    RequestScope next = engine.outermostEntry(FakeExchange.get("/hello").from("198.51.100.2"));
    assertNotSame(first, next, "a new context while the first request's end is to come");
    assertEquals(exchange.remoteAddress, first.verdicts.entry(0).key, "the first one untouched");
    engine.requestEnded(next);

    exchange.ends.forEach(Runnable::run);
    RequestScope after = engine.outermostEntry(FakeExchange.get("/report").from("203.0.113.9"));
    assertNotSame(RequestScope.REFUSED, after, "its permit given back at its end");
    engine.requestEnded(after);
  }

  @Test
  void aRequestInsideAnothersHasItsOwnContext() {
    RequestScope outer = engine.outermostEntry(FakeExchange.get("/hello"));
    RequestScope inner = engine.outermostEntry(FakeExchange.get("/hello"));

    assertNotSame(outer, inner);
    assertSame(inner, engine.currentRequest());
    engine.requestEnded(inner);
    engine.requestEnded(outer);
  }

  @Test
  void aRefusedRequestLeavesItsContextToTheNext() {
    RequestScope holding = engine.outermostEntry(new LaterEnd("/report"));
    engine.requestEnded(holding); // holds the one permit until its end, which comes later
    RequestScope idle = engine.outermostEntry(FakeExchange.get("/hello"));
    engine.requestEnded(idle);

    assertSame(RequestScope.REFUSED, engine.outermostEntry(new LaterEnd("/report")));
    RequestScope next = engine.outermostEntry(FakeExchange.get("/hello"));
    assertSame(idle, next, "the refused request's context, emptied");
    assertEquals(1, next.verdicts.size());
    assertEquals("hello-per-ip", next.verdicts.entry(0).rule.name());
    engine.requestEnded(next);
  }

  /** How many decisions a decision's time stands for: 0 when it is not timed. */
  @ParameterizedTest(name = "{0}: {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        // what                                  | decisions before | held | may hold | weight
        "the thread's first                      | 0                | 0    | false    | 1",
        "the second                              | 1                | 0    | false    | 0",
        "the 64th                                | 63               | 0    | false    | 0",
        "the 65th: for itself and the 63 before  | 64               | 0    | false    | 64",
        "the 66th                                | 65               | 0    | false    | 0",
        "the 129th                               | 128              | 0    | false    | 64",
        "a store that may hold the request       | 5                | 0    | true     | 1",
        "a request held already                  | 5                | 7    | false    | 1",
      })
  void oneLocalDecisionInSixtyFourIsTimed(
      String what, int before, long held, boolean mayHold, long weight) {
    RequestScope scope = new RequestScope(null, new RuleVerdicts());
    List<Long> weights = new ArrayList<>();
    for (int i = 0; i < before; i++) {
      weights.add(DecisionTiming.weight(scope, 0, false));
    }
    assertEquals(weight, DecisionTiming.weight(scope, held, mayHold), what);
    long timedFor = weights.stream().mapToLong(Long::longValue).sum();
    assertEquals(before, timedFor + untimedSince(weights), "every decision counted once");
  }

  @Test
  void aDecisionWithNoContextIsAlwaysTimed() {
    assertEquals(1, DecisionTiming.weight(null, 0, false));
  }

  /** The decisions after the last timed one, which the next timed one will stand for. */
  private static long untimedSince(List<Long> weights) {
    long n = 0;
    for (int i = weights.size() - 1; i >= 0 && weights.get(i) == 0; i--) {
      n++;
    }
    return n;
  }

  /** An exchange whose request ends later, as an asynchronous one does: its ends are kept. */
  private static final class LaterEnd extends CountWhenEngineTest.HttpExchangeDelegate {
    final List<Runnable> ends = new ArrayList<>();
    final String remoteAddress = "203.0.113.9";

    LaterEnd(String path) {
      super(FakeExchange.get(path).from("203.0.113.9"));
    }

    @Override
    public void whenComplete(Runnable action) {
      ends.add(action);
    }
  }
}
