package io.tollgate.agent;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.diagnostics.status.BackendStatus;
import io.tollgate.diagnostics.status.OutboundStatus;
import io.tollgate.diagnostics.status.RuleStatus;
import io.tollgate.diagnostics.status.StatusSnapshot;
import io.tollgate.engine.RulesHolder;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import io.tollgate.outbound.OutboundCall;
import io.tollgate.outbound.OutboundLimiter;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.LimiterStore;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent answers {@code status} with, from the rules in force, their counters and the
 * backend: one row per budget with its algorithm and limit as people write them; a rules file
 * that stopped applying and a Redis that went away are problems, and go when they are fixed.
 */
@ExtendWith(RedisServerExtension.class)
class StatusReportTest {

  @TempDir Path dir;

  private Path write(String name, String... lines) throws Exception {
    return Files.write(dir.resolve(name),
        (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void eachBudgetIsARowWithItsAlgorithmLimitAndCounters() throws Exception {
    Path file = write("rules.yaml",
        "rules:",
        "  - name: sr-bucket",
        "    match: { path: /a }",
        "    key: ip",
        "    limit: 10",
        "    period: 1s",
        "  - name: sr-pool",
        "    match: { path: /b }",
        "    key: global",
        "    algorithm: concurrency",
        "    limit: 20",
        "    period: 1m",
        "  - name: sr-adaptive",
        "    match: { path: /c }",
        "    key: global",
        "    algorithm: adaptive-concurrency",
        "    max: 50",
        "  - name: sr-api",
        "    match: { path: /d }",
        "    key: header:X-Api-Key",
        "    limits:",
        "      - { limit: 10, period: 1s }",
        "      - { limit: 1000, period: 1h }",
        "  - name: sr-trial",
        "    mode: shadow",
        "    match: { path: /e }",
        "    key: ip",
        "    algorithm: sliding-window",
        "    limit: 100",
        "    period: 1m",
        "  - name: sr-plans",
        "    match: { path: /f }",
        "    key: header:X-Api-Key",
        "    plans:",
        "      header: X-Plan",
        "      default: free",
        "      limits:",
        "        free: { limit: 10, period: 1m }",
        "        pro: [{ limit: 1000, period: 1m }, { limit: 100000, period: 1d }]");
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    TollgateMetrics.record("sr-bucket", true, false, "203.0.113.7", false, 1_000);
    TollgateMetrics.record("sr-bucket", false, false, "203.0.113.7", false, 1_000);
    TollgateMetrics.record("sr-trial", false, true, "198.51.100.2", false, 1_000);
    TollgateMetrics.earlyRetry("sr-bucket", "203.0.113.7", key -> key, 12, 200_000_000L);

    StatusSnapshot snapshot = StatusReport.snapshot(holder, 1_000L);
    Object[][] expected = {
        // name, algorithm, limit, shadow, allowed, refused, would-refuse
        {"sr-bucket", "token-bucket", "10/1s", false, 1L, 1L, 0L},
        {"sr-pool", "concurrency", "20 in flight", false, 0L, 0L, 0L},
        {"sr-adaptive", "adaptive-concurrency", "up to 50 in flight", false, 0L, 0L, 0L},
        {"sr-api/1s", "token-bucket", "10/1s", false, 0L, 0L, 0L},
        {"sr-api/1h", "token-bucket", "1000/1h", false, 0L, 0L, 0L},
        {"sr-trial", "sliding-window", "100/1m", true, 0L, 0L, 1L},
        {"sr-plans", "token-bucket", "10/1m, plan free", false, 0L, 0L, 0L},
        {"sr-plans/1m", "token-bucket", "1000/1m, plan pro", false, 0L, 0L, 0L},
        {"sr-plans/1d", "token-bucket", "100000/1d, plan pro", false, 0L, 0L, 0L},
    };
    assertEquals(expected.length, snapshot.rules.size(), snapshot.toJson());
    for (int i = 0; i < expected.length; i++) {
      Object[] row = expected[i];
      RuleStatus rule = snapshot.rules.get(i);
      assertEquals(row[0], rule.name);
      assertEquals(row[1], rule.algorithm, rule.name);
      assertEquals(row[2], rule.limit, rule.name);
      assertEquals(row[3], rule.shadow, rule.name);
      assertEquals(row[4], rule.counter("allowed"), rule.name);
      assertEquals(row[5], rule.counter("refused"), rule.name);
      assertEquals(row[6], rule.counter("wouldRefuse"), rule.name);
    }
    assertEquals("203.0.113.7", snapshot.rule("sr-bucket").keys("refused").get(0).key);
    assertEquals(1, snapshot.rule("sr-bucket").counter("earlyRetries"));
    assertEquals("203.0.113.7=1 (told 12 s, came back after 0.2 s)",
        snapshot.rule("sr-bucket").keys("earlyRetries").get(0).toString());
    assertEquals(file.toString(), snapshot.rulesFile);
    assertEquals(List.of(), snapshot.problems);
    assertEquals(BackendStatus.LOCAL, snapshot.backend.kind);
    assertEquals(1_000L, snapshot.agentStartedAtMillis);
    assertEquals(ProcessHandle.current().pid(), snapshot.pid);
  }

  @Test
  void eachOutboundRuleIsARowWithItsCountersAndThePartnersWaitsInForce() throws Exception {
    Path file = write("rules.yaml",
        "rules: []",
        "outbound:",
        "  - name: sr-out-paced",
        "    match: { hosts: api.partner.example }",
        "    algorithm: gcra",
        "    limit: 8",
        "    period: 1s",
        "    max-delay: 10s",
        "  - name: sr-out-fails",
        "    match: { hosts: billing.example }",
        "    key: header:X-Tenant",
        "    limits:",
        "      - { limit: 1, period: 1s }",
        "      - { limit: 100, period: 1h }",
        "    on-limit: fail",
        "  - name: sr-out-trial",
        "    match: { hosts: trial.example }",
        "    mode: shadow",
        "    limit: 5",
        "    period: 1m");
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    OutboundLimiter gate = holder.outbound();
    OutboundCall billing = call("billing.example", "acme");
    assertTrue(gate.beforeSend(billing).send());
    assertFalse(gate.beforeSend(billing).send()); // 1 a second, on-limit: fail
    gate.afterResponse(billing, 429, name -> name.equals("Retry-After") ? "30" : null);

    StatusSnapshot snapshot = StatusReport.snapshot(holder, 0);
    Object[][] expected = {
        // name, algorithm, limit, mode, sent, failed fast, partner 429s, holds
        {"sr-out-paced", "gcra", "8/1s", "enforce, on-limit wait", 0L, 0L, 0L, 0},
        {"sr-out-fails", "token-bucket", "1/1s, 100/1h", "enforce, on-limit fail", 1L, 1L, 1L, 1},
        {"sr-out-trial", "token-bucket", "5/1m", "shadow, on-limit wait", 0L, 0L, 0L, 0},
    };
    assertEquals(expected.length, snapshot.outbound.size(), snapshot.toJson());
    for (int i = 0; i < expected.length; i++) {
      Object[] row = expected[i];
      OutboundStatus rule = snapshot.outbound.get(i);
      assertEquals(row[0], rule.name);
      assertEquals(row[1], rule.algorithm, rule.name);
      assertEquals(row[2], rule.limit, rule.name);
      assertEquals(row[3], rule.mode(), rule.name);
      assertEquals(row[4], rule.counter("sent"), rule.name);
      assertEquals(row[5], rule.counter("failedFast"), rule.name);
      assertEquals(row[6], rule.counter("partner429s"), rule.name);
      assertEquals(row[7], rule.holds.size(), rule.name);
    }
    OutboundStatus.Hold hold = snapshot.outboundRule("sr-out-fails").holds.get(0);
    assertEquals("acme", hold.key);
    assertEquals("billing.example:443 answered 429 with Retry-After, asking to wait 30s",
        hold.answer);
    assertTrue(hold.learntHere);
    long left = hold.untilMillis - snapshot.takenAtMillis;
    assertTrue(left > 0 && left <= 30_000, "until " + left + " ms from now");
  }

  /** A call to {@code host} for {@code tenant}, as a client module describes it. */
  private static OutboundCall call(String host, String tenant) {
    return new OutboundCall() {
      @Override
      public String method() {
        return "GET";
      }

      @Override
      public String host() {
        return host;
      }

      @Override
      public int port() {
        return 443;
      }

      @Override
      public String path() {
        return "/v1/orders";
      }

      @Override
      public String header(String name) {
        return name.equalsIgnoreCase("X-Tenant") ? tenant : null;
      }
    };
  }

  @Test
  void aRulesFileThatStoppedApplyingIsAProblemUntilItIsFixed() throws Exception {
    Path file = write("rules.yaml", "rules:", "  - name: sr-fixed", "    key: ip",
        "    limit: 5", "    period: 1m");
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    assertEquals(List.of(), StatusReport.snapshot(holder, 0).problems);

    write("rules.yaml", "rules:", "  - name: sr-fixed", "    key: ip", "    limit: lots",
        "    period: 1m");
    assertFalse(holder.reloadIfChanged());
    StatusSnapshot broken = StatusReport.snapshot(holder, 0);
    assertEquals(1, broken.problems.size(), broken.problems.toString());
    assertTrue(broken.problems.get(0).startsWith("the rules file " + file + " was not applied (1"
        + " problem, the first: "), broken.problems.get(0));
    assertTrue(broken.problems.get(0).contains("the last good rules stay in force"));
    assertEquals("5/1m", broken.rule("sr-fixed").limit, "the last good rules are shown");

    Files.delete(file);
    holder.reloadIfChanged();
    assertTrue(StatusReport.snapshot(holder, 0).problems.get(0).contains(file.toString()));

    write("rules.yaml", "rules:", "  - name: sr-fixed", "    key: ip", "    limit: 7",
        "    period: 1m");
    assertTrue(holder.reloadIfChanged());
    StatusSnapshot fixed = StatusReport.snapshot(holder, 0);
    assertEquals(List.of(), fixed.problems);
    assertEquals("7/1m", fixed.rule("sr-fixed").limit);
  }

  @Test
  void noRulesHolderYetIsNoRulesAndNoProblem() {
    StatusSnapshot snapshot = StatusReport.snapshot(null, 0);
    assertNull(snapshot.rulesFile);
    assertEquals(List.of(), snapshot.rules);
    assertEquals(List.of(), snapshot.problems);
  }

  @Test
  void redisHealthIsReportedAndARedisThatWentAwayIsAProblem(@PrivateRedis RedisServer server)
      throws Exception {
    Path file = write("rules.yaml",
        "backend: redis",
        "redis:",
        "  uri: " + server.uri(),
        "rules:",
        "  - name: sr-redis",
        "    key: ip",
        "    limit: 5",
        "    period: 1m",
        "    on-failure: local");
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    try {
      awaitTrue(() -> StatusReport.snapshot(holder, 0).backend.connected, "connected");
      StatusSnapshot up = StatusReport.snapshot(holder, 0);
      assertEquals(BackendStatus.REDIS, up.backend.kind);
      assertEquals(server.uri(), up.backend.address);
      assertEquals("CLOSED", up.backend.circuit);
      assertTrue(up.backend.instances >= 1);
      assertEquals(List.of(), up.problems);
      assertEquals(0, up.backend.counter(BackendStatus.NOT_ANSWERED));

      LimiterStore store = holder.current().rules().get(0).store();
      Verdict verdict = new Verdict();
      store.decide("203.0.113.7", 1, verdict);
      assertTrue(verdict.allowed);
      StatusSnapshot decided = StatusReport.snapshot(holder, 0);
      // decisions are not batched unless -Dtollgate.redis.batch=true (RedisBackend)
      assertEquals(0, decided.backend.counter(BackendStatus.BATCHED_DECISIONS),
          "no decision batched by default: " + decided.backend.counters);
      assertEquals(0, decided.backend.counter(BackendStatus.BATCH_CALLS));

      server.kill();
      awaitTrue(() -> {
        store.decide("203.0.113.7", 1, verdict); // decided by on-failure: local
        StatusSnapshot now = StatusReport.snapshot(holder, 0);
        return !now.problems.isEmpty() && now.backend.counter(BackendStatus.NOT_ANSWERED) > 0;
      }, "redis down is a problem, and decisions fall back");
      StatusSnapshot down = StatusReport.snapshot(holder, 0);
      assertTrue(down.problems.get(0).startsWith("redis at " + server.uri()), down.problems.toString());
      assertTrue(down.problems.get(0).endsWith("each rule on it decides by its on-failure policy"),
          down.problems.toString());

      server.restart();
      awaitTrue(() -> {
        store.decide("203.0.113.7", 1, verdict);
        return StatusReport.snapshot(holder, 0).problems.isEmpty();
      }, "no problem once redis answers again");
    } finally {
      // Back to local: the redis client is closed once its decisions have drained.
      write("rules.yaml", "rules: []");
      holder.reloadIfChanged();
    }
  }

  /**
   * A rule with {@code lease-tokens} on Redis shows its leases beside its counters, a rule that
   * does not lease shows none; the counts outlive a reload that replaces the rule's store (a new
   * lease size), and go from the view when the file stops leasing.
   */
  @Test
  void aLeasingRuleShowsItsLeasesAcrossReloads(@PrivateRedis RedisServer server) throws Exception {
    String[] rules = {
        "rules:",
        "  - name: sr-leased",
        "    match: { path: /a }",
        "    key: ip",
        "    limit: 1000",
        "    period: 1s",
        "  - name: sr-window",
        "    match: { path: /b }",
        "    key: ip",
        "    algorithm: sliding-window",
        "    limit: 1000",
        "    period: 1s"};
    Path file = write("rules.yaml", leasing(server, 10, rules));
    RulesHolder holder = new RulesHolder(new RuleSetFactory(Clock.system()));
    assertTrue(holder.useFile(file.toString()));
    try {
      decide(holder, 15); // 9 cold, the 10th takes a lease, 5 from it
      StatusSnapshot first = StatusReport.snapshot(holder, 0);
      RuleStatus leased = first.rule("sr-leased");
      assertEquals(10, leased.leaseTokens);
      long fromLease = leased.leaseCounter("allowedFromLease");
      long byRedis = leased.leaseCounter("decidedByRedis");
      // 10 and 5 unless the machine stalled a second among them (the key cooled meanwhile)
      assertEquals(15, byRedis + fromLease, first.toJson());
      assertTrue(fromLease > 0 && leased.leaseCounter("leases") >= 1, first.toJson());
      assertFalse(first.rule("sr-window").leases(), "a sliding window is not leased");

      write("rules.yaml", leasing(server, 20, rules));
      assertTrue(holder.reloadIfChanged());
      decide(holder, 1);
      RuleStatus reloaded = StatusReport.snapshot(holder, 0).rule("sr-leased");
      assertEquals(20, reloaded.leaseTokens, "the new lease size");
      assertEquals(fromLease, reloaded.leaseCounter("allowedFromLease"), "the counts go on");
      assertEquals(byRedis + 1, reloaded.leaseCounter("decidedByRedis"),
          "a new store: a cold key again");

      write("rules.yaml", leasing(server, 0, rules));
      assertTrue(holder.reloadIfChanged());
      assertFalse(StatusReport.snapshot(holder, 0).rule("sr-leased").leases(), "no leases now");
    } finally {
      write("rules.yaml", "rules: []");
      holder.reloadIfChanged();
    }
  }

  /** {@code rules} on {@code server}, with {@code lease-tokens} unless 0. */
  private static String[] leasing(RedisServer server, int leaseTokens, String... rules) {
    List<String> lines = new java.util.ArrayList<>(List.of("backend: redis", "redis:",
        "  uri: " + server.uri()));
    if (leaseTokens > 0) {
      lines.add("  lease-tokens: " + leaseTokens);
    }
    lines.addAll(List.of(rules));
    return lines.toArray(new String[0]);
  }

  /** {@code n} requests of one client on the first rule's store, each allowed. */
  private static void decide(RulesHolder holder, int n) {
    LimiterStore store = holder.current().rules().get(0).store();
    Verdict verdict = new Verdict();
    for (int i = 0; i < n; i++) {
      store.decide("203.0.113.7", 1, verdict);
      assertTrue(verdict.allowed, "request " + i);
    }
  }
}
