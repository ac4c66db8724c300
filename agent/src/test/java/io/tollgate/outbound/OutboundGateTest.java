package io.tollgate.outbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.ConfigException;
import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.diagnostics.metrics.OutboundMetrics;
import io.tollgate.diagnostics.metrics.OutboundRuleMetrics;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The outbound rules deciding calls on local stores: pacing, failing fast, honouring the
 * partner's waits, shadow mode, keys, and reloads. No assertion on how long anything took: what
 * was paced is read from the rule's counters.
 */
class OutboundGateTest {

  /** A call as a client module would describe it. */
  static final class Call implements OutboundCall {
    final String method;
    final String host;
    final int port;
    final String path;
    final Map<String, String> headers = new HashMap<>();
    boolean mayWait = true;

    Call(String method, String host, int port, String path) {
      this.method = method;
      this.host = host;
      this.port = port;
      this.path = path;
    }

    Call with(String header, String value) {
      headers.put(header.toLowerCase(), value);
      return this;
    }

    @Override
    public String method() {
      return method;
    }

    @Override
    public String host() {
      return host;
    }

    @Override
    public int port() {
      return port;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public String header(String name) {
      return headers.get(name.toLowerCase());
    }

    /** As if sent on a thread that must not be parked (an event loop). */
    Call onAnEventLoop() {
      mayWait = false;
      return this;
    }

    @Override
    public boolean mayWait() {
      return mayWait;
    }
  }

  static Call get(String host) {
    return new Call("GET", host, 443, "/v1/orders");
  }

  /** A rule name of its own per test: the counters are the JVM's. */
  private final String name = "partner-" + UUID.randomUUID().toString().substring(0, 8);

  private String rule(String... extra) {
    StringBuilder yaml = new StringBuilder("outbound:\n  - name: " + name + "\n"
        + "    match:\n      hosts: \"*.partner.example\"\n");
    for (String line : extra) {
      yaml.append("    ").append(line).append('\n');
    }
    return yaml.toString();
  }

  private OutboundGate gate(String yaml, OutboundGate previous) throws ConfigException {
    RulesConfig config = RulesFileParser.parse(yaml, "rules.yaml");
    OutboundRules.check(config);
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    factory.build(config, null);
    OutboundGate gate = OutboundRules.build(config, previous, factory);
    factory.applied();
    return gate;
  }

  private OutboundRuleMetrics metrics() {
    return OutboundMetrics.forRule(name);
  }

  @Test
  void onLimitFailFailsTheCallOverTheLimitAtOnceNamingTheRule() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 2", "period: 1m", "on-limit: fail"), null);
    assertTrue(gate.beforeSend(get("api.partner.example")).send());
    assertTrue(gate.beforeSend(get("api.partner.example")).send());
    OutboundDecision third = gate.beforeSend(get("api.partner.example"));
    assertFalse(third.send());
    assertEquals(name, third.ruleName());
    assertTrue(third.retryAfterSeconds() >= 1 && third.retryAfterSeconds() <= 60, third.toString());
    assertEquals(2, metrics().getSent());
    assertEquals(1, metrics().getFailedFast());
  }

  @Test
  void callsToOtherDestinationsAreNotCounted() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 1", "period: 1m", "on-limit: fail"), null);
    for (int i = 0; i < 5; i++) {
      assertTrue(gate.beforeSend(get("api.other.example")).send());
    }
    assertEquals(0, metrics().getSent());
  }

  @Test
  void aGcraRulePacesTheCallsOverItsRateAndSendsThemAll() throws ConfigException {
    OutboundGate gate = gate(rule("algorithm: gcra", "limit: 20", "period: 1s", "burst: 1",
        "max-delay: 5s"),
        null);
    for (int i = 0; i < 4; i++) {
      assertTrue(gate.beforeSend(get("api.partner.example")).send());
    }
    assertEquals(4, metrics().getSent());
    assertTrue(metrics().getPaced() >= 1, "paced " + metrics().getPaced());
    assertEquals(0, metrics().getFailedFast());
  }

  @Test
  void aCallThatMayNotWaitIsSentOnlyWithRoomAtOnce() throws ConfigException {
    OutboundGate gate = gate(rule("algorithm: gcra", "limit: 1", "period: 20s", "burst: 1",
        "max-delay: 25s", "max-wait: 25s"), null);
    assertTrue(gate.beforeSend(get("api.partner.example").onAnEventLoop()).send(), "room at once");
    OutboundDecision paced = gate.beforeSend(get("api.partner.example").onAnEventLoop());
    assertFalse(paced.send(), "its turn would come in 20 s: failed, not waited for");
    assertEquals(name, paced.ruleName());
    assertEquals(1, metrics().getSent());
    assertEquals(0, metrics().getPaced());
    assertEquals(1, metrics().getFailedFast());
  }

  @Test
  void aPartnersWaitFailsACallThatMayNotWait() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 100", "period: 1s", "max-wait: 5s"), null);
    Call call = get("api.partner.example");
    gate.afterResponse(call, 429, headers("Retry-After", "1"));
    OutboundDecision next = gate.beforeSend(get("api.partner.example").onAnEventLoop());
    assertFalse(next.send());
    assertEquals(1, next.retryAfterSeconds());
    assertEquals(0, metrics().getPaced());
  }

  /**
   * A host that stops running the app's threads for a while (a saturated CPU, a long GC pause)
   * wakes every paced call whose turn passed meanwhile at the same instant. Sent then, they would
   * reach the partner together, over its limit (OutboundSpringPartnerIT saw a 429 so at a load of
   * 48 on two cores); each takes a new turn instead.
   */
  @Test
  void callsWokenTogetherAfterTheirTurnsPassedTakeNewTurnsInsteadOfGoingOutTogether()
      throws Exception {
    // one call every 50 ms; the eight calls' turns: at once, then 50, 100, ... 350 ms
    OutboundGate gate = gate(rule("algorithm: gcra", "limit: 20", "period: 1s", "burst: 1",
        "max-delay: 30s", "max-wait: 30s"), null);
    long thaw = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    AtomicInteger waitsForNewTurns = new AtomicInteger();
    Pause.parkWith(nanos -> {
      long now = System.nanoTime();
      if (now - thaw < 0) {
        LockSupport.parkNanos(thaw - now); // the stalled host: no thread runs before the thaw
      } else {
        waitsForNewTurns.incrementAndGet(); // a turn booked after the thaw, waited for as usual
        LockSupport.parkNanos(nanos);
      }
    });
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> sent = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        sent.add(threads.submit(() -> gate.beforeSend(get("api.partner.example")).send()));
      }
      for (Future<Boolean> call : sent) {
        assertTrue(call.get(60, TimeUnit.SECONDS), "every call is sent");
      }
    } finally {
      threads.shutdownNow();
      Pause.parkWith(null);
    }
    assertEquals(8, metrics().getSent());
    // The seven paced calls woke at the thaw, 1.6 s or more after their turns: one may go out at
    // once, the others wait for turns of their own, 50 ms apart.
    assertTrue(waitsForNewTurns.get() >= 5, waitsForNewTurns.get() + " waits after the thaw");
  }

  @Test
  void aCallWhoseTurnComesAfterMaxWaitFails() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 1", "period: 1m", "max-wait: 1s"), null);
    assertTrue(gate.beforeSend(get("api.partner.example")).send());
    OutboundDecision second = gate.beforeSend(get("api.partner.example"));
    assertFalse(second.send());
    assertEquals(0, metrics().getPaced());
  }

  @Test
  void eachHeaderValueHasItsOwnBudget() throws ConfigException {
    OutboundGate gate = gate(rule("key: header:X-Tenant", "limit: 1", "period: 1m",
        "on-limit: fail"), null);
    assertTrue(gate.beforeSend(get("api.partner.example").with("X-Tenant", "a")).send());
    assertTrue(gate.beforeSend(get("api.partner.example").with("X-Tenant", "b")).send());
    assertFalse(gate.beforeSend(get("api.partner.example").with("X-Tenant", "a")).send());
    assertTrue(gate.beforeSend(get("api.partner.example")).send()); // no header: one budget
    assertFalse(gate.beforeSend(get("api.partner.example")).send());
  }

  @Test
  void aPartners429WithRetryAfterHoldsTheNextCalls() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 100", "period: 1s", "on-limit: fail"), null);
    Call call = get("api.partner.example");
    assertTrue(gate.beforeSend(call).send());
    gate.afterResponse(call, 429, headers("Retry-After", "30"));
    OutboundDecision next = gate.beforeSend(call);
    assertFalse(next.send());
    assertEquals(30, next.retryAfterSeconds());
    assertEquals(1, metrics().getPartner429s());
  }

  @Test
  void aPartnersWaitIsCappedByMaxHonouredWait() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 100", "period: 1s", "on-limit: fail",
        "max-honoured-wait: 2s"), null);
    Call call = get("api.partner.example");
    gate.afterResponse(call, 503, headers("Retry-After", "3600"));
    OutboundDecision next = gate.beforeSend(call);
    assertFalse(next.send());
    assertEquals(2, next.retryAfterSeconds());
  }

  @Test
  void aCallThatMayWaitWaitsOutThePartnersShortWaitAndGoesOut() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 100", "period: 1s", "max-wait: 5s"), null);
    Call call = get("api.partner.example");
    gate.afterResponse(call, 200, headers("RateLimit", "\"default\";r=0;t=1"));
    assertTrue(gate.beforeSend(call).send());
    assertEquals(1, metrics().getPaced());
  }

  @Test
  void withHonourPartnerFalseTheAnswerIsOnlyCounted() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 100", "period: 1s", "on-limit: fail",
        "honour-partner: false"), null);
    Call call = get("api.partner.example");
    gate.afterResponse(call, 429, headers("Retry-After", "30"));
    assertTrue(gate.beforeSend(call).send());
    assertEquals(1, metrics().getPartner429s());
  }

  @Test
  void aShadowRuleSendsEveryCallAndCountsWhatItWouldHaveHeld() throws ConfigException {
    OutboundGate gate = gate(rule("limit: 1", "period: 1m", "on-limit: fail", "mode: shadow"),
        null);
    for (int i = 0; i < 3; i++) {
      assertTrue(gate.beforeSend(get("api.partner.example")).send());
    }
    assertEquals(3, metrics().getSent());
    assertEquals(2, metrics().getWouldLimit());
    assertEquals(0, metrics().getFailedFast());
  }

  @Test
  void aReloadThatKeepsTheRuleKeepsItsCountsAndOneThatChangesItStartsAfresh()
      throws ConfigException {
    String yaml = rule("limit: 1", "period: 1m", "on-limit: fail");
    OutboundGate first = gate(yaml, null);
    assertTrue(first.beforeSend(get("api.partner.example")).send());
    OutboundGate same = gate(yaml + "rules: []\n", first);
    assertSame(first.find(name).budgets[0], same.find(name).budgets[0]);
    assertFalse(same.beforeSend(get("api.partner.example")).send());
    OutboundGate changed = gate(rule("limit: 2", "period: 1m", "on-limit: fail"), same);
    assertNotSame(same.find(name).budgets[0], changed.find(name).budgets[0]);
    assertTrue(changed.beforeSend(get("api.partner.example")).send());
  }

  @Test
  void aFileWithoutOutboundRulesLimitsNothing() throws ConfigException {
    assertSame(OutboundGate.EMPTY, gate("rules: []\n", null));
    assertFalse(OutboundGate.EMPTY.active());
  }

  private static java.util.function.Function<String, String> headers(String name, String value) {
    Map<String, String> map = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    map.put(name, value);
    return map::get;
  }

  @SuppressWarnings("unused")
  private static Map<String, String> none() {
    return Collections.emptyMap();
  }
}
