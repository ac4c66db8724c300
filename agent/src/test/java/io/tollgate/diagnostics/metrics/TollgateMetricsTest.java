package io.tollgate.diagnostics.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TollgateMetricsTest {

  @AfterEach
  void reset() {
    TollgateMetrics.reset();
  }

  @Test
  void countersAndLatency() {
    RuleMetrics rule = TollgateMetrics.forRule("unit-counters");
    // each decision is one verdict and its time, as TollgateMetrics.record counts it
    rule.allowed();
    rule.decisionTook(100);
    rule.allowed();
    rule.decisionTook(300);
    rule.refused("10.0.0.1");
    rule.decisionTook(200);
    rule.wouldRefuse("10.0.0.2");
    rule.backendError();
    rule.decisionTook(200);
    assertEquals(2, rule.getAllowed());
    assertEquals(1, rule.getRefused());
    assertEquals(1, rule.getWouldRefuse());
    assertEquals(1, rule.getBackendErrors());
    assertEquals(4, rule.getDecisions());
    assertEquals(800, rule.getDecisionNanosTotal());
    assertEquals(300, rule.getDecisionNanosMax());
    assertEquals(200, rule.getDecisionNanosMean());
    assertTrue(TollgateMetrics.forRule("unit-counters") == rule, "one per rule name");
  }

  @Test
  void registeredOverJmxOnFirstUse() throws Exception {
    RuleMetrics rule = TollgateMetrics.forRule("unit-jmx");
    rule.refused("10.0.0.9");
    rule.refused("10.0.0.9");
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("io.tollgate:type=Rule,name=unit-jmx");
    assertEquals(name.toString(), JmxExporter.objectName("unit-jmx"));
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!server.isRegistered(name) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(2L, server.getAttribute(name, "Refused"));
    assertEquals(Arrays.asList("10.0.0.9=2"),
        Arrays.asList((String[]) server.getAttribute(name, "TopRefusedKeys")));
  }

  @Test
  void oddRuleNamesAreQuoted() throws Exception {
    new ObjectName(JmxExporter.objectName("a,b=c"));
    assertEquals("io.tollgate:type=Rule,name=login-per-ip.v2",
        JmxExporter.objectName("login-per-ip.v2"));
  }

  @Test
  void prometheusText() {
    RuleMetrics rule = TollgateMetrics.forRule("unit-prom");
    rule.allowed();
    rule.decisionTook(500_000);
    rule.refused("1.2.3.4");
    rule.decisionTook(1_000_000);
    String text = PrometheusExporter.render(TollgateMetrics.all());
    assertTrue(text.contains("# TYPE tollgate_rule_allowed_total counter\n"), text);
    assertTrue(text.contains("tollgate_rule_allowed_total{rule=\"unit-prom\"} 1\n"), text);
    assertTrue(text.contains("tollgate_rule_refused_total{rule=\"unit-prom\"} 1\n"), text);
    assertTrue(text.contains("tollgate_rule_would_refuse_total{rule=\"unit-prom\"} 0\n"), text);
    assertTrue(text.contains("tollgate_rule_decision_seconds_count{rule=\"unit-prom\"} 2\n"), text);
    assertTrue(text.contains("tollgate_rule_decision_seconds_sum{rule=\"unit-prom\"} 0.001500000\n"),
        text);
    assertTrue(text.contains(
        "tollgate_rule_refused_key_requests{rule=\"unit-prom\",rank=\"1\",key=\"1.2.3.4\"} 1\n"),
        text);
    assertEquals("a\\\"b\\\\c\\n", PrometheusExporter.escape("a\"b\\c\n"));
  }

  @Test
  void earlyRetryKeysAreShownWhenReadNotWhenCountedAndTwoShownAlikeAreOne() {
    RuleMetrics rule = TollgateMetrics.forRule("unit-early-shown");
    java.util.concurrent.atomic.AtomicInteger shown = new java.util.concurrent.atomic.AtomicInteger();
    java.util.function.UnaryOperator<String> cut = k -> {
      shown.incrementAndGet();
      return k.substring(0, 4) + "...";
    };
    for (int i = 0; i < 3; i++) {
      rule.earlyRetry("key-a-long", cut, 12, 100_000_000L);
    }
    rule.earlyRetry("key-b-long", cut, 30, 500_000_000L);
    assertEquals(0, shown.get(), "a flood's early retries make no string to show");
    assertEquals("key-...=4 (told 12 s, came back after 0.1 s)",
        rule.topEarlyRetryKeys(10).get(0).toString());
    assertEquals(2, shown.get(), "each key counted, shown once per read");
    assertEquals(1, rule.topEarlyRetryKeys(10).size());
  }

  @Test
  void earlyRetriesOverPrometheusAndJmx() throws Exception {
    TollgateMetrics.forRule("unit-early").refused("203.0.113.7");
    TollgateMetrics.earlyRetry("unit-early", "203.0.113.7", k -> k, 12, 200_000_000L);
    TollgateMetrics.earlyRetry("unit-early", "203.0.113.7", k -> k, 12, 300_000_000L);
    TollgateMetrics.earlyRetry("unit-early", "198.51.100.1", k -> k, 1, 900_000_000L);

    RuleMetrics rule = TollgateMetrics.forRule("unit-early");
    assertEquals(3, rule.earlyRetries());
    assertEquals("203.0.113.7=2 (told 12 s, came back after 0.3 s)",
        rule.topEarlyRetryKeys(1).get(0).toString());
    String text = PrometheusExporter.render(TollgateMetrics.all());
    assertTrue(text.contains("# TYPE tollgate_early_retries_total counter\n"), text);
    assertTrue(text.contains("tollgate_early_retries_total{rule=\"unit-early\"} 3\n"), text);

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("io.tollgate:type=Rule,name=unit-early");
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!server.isRegistered(name) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(3L, server.getAttribute(name, "EarlyRetries"));
    assertEquals(Arrays.asList("203.0.113.7=2 (told 12 s, came back after 0.3 s)",
            "198.51.100.1=1 (told 1 s, came back after 0.9 s)"),
        Arrays.asList((String[]) server.getAttribute(name, "TopEarlyRetryKeys")));
  }

  /** Counts 1 to 10 in the order of {@link LeaseCounts}'s methods, N = 100. */
  private static LeaseCounts leaseCounts() {
    return new LeaseCounts() {
      @Override public long leaseTokens() { return 100; }
      @Override public long leases() { return 1; }
      @Override public long leasesAhead() { return 2; }
      @Override public long leasesLost() { return 3; }
      @Override public long tokensLeased() { return 4; }
      @Override public long tokensUnused() { return 5; }
      @Override public long allowedFromLease() { return 6; }
      @Override public long decidedByRedis() { return 7; }
      @Override public long waitedForLease() { return 8; }
      @Override public long decidedByShare() { return 9; }
    };
  }

  @Test
  void aLeasingRuleHasItsLeaseCountersInPrometheusOthersNone() {
    TollgateMetrics.forRule("unit-lease").allowed();
    TollgateMetrics.forRule("unit-plain").allowed();
    assertFalse(PrometheusExporter.render(TollgateMetrics.all()).contains("tollgate_rule_lease"),
        "no lease counters while no rule leases");
    TollgateMetrics.showLeases(java.util.Map.of("unit-lease", leaseCounts()));
    String text = PrometheusExporter.render(TollgateMetrics.all());
    String[][] expected = {
      {"tollgate_rule_lease_size", "gauge", "100"},
      {"tollgate_rule_lease_allowed_total", "counter", "6"},
      {"tollgate_rule_lease_redis_decisions_total", "counter", "7"},
      {"tollgate_rule_leases_total", "counter", "1"},
      {"tollgate_rule_leases_ahead_total", "counter", "2"},
      {"tollgate_rule_lease_waits_total", "counter", "8"},
      {"tollgate_rule_lease_share_decisions_total", "counter", "9"},
      {"tollgate_rule_lease_tokens_total", "counter", "4"},
      {"tollgate_rule_lease_tokens_unused_total", "counter", "5"},
      {"tollgate_rule_leases_lost_total", "counter", "3"},
    };
    for (String[] metric : expected) {
      assertTrue(text.contains("# HELP " + metric[0] + " "), metric[0] + "\n" + text);
      assertTrue(text.contains("# TYPE " + metric[0] + " " + metric[1] + "\n"), text);
      assertTrue(text.contains(metric[0] + "{rule=\"unit-lease\"} " + metric[2] + "\n"), text);
      assertFalse(text.contains(metric[0] + "{rule=\"unit-plain\"}"), text);
    }
  }

  @Test
  void aLeasingRuleHasItsLeaseCountersOverJmxOthersMinusOne() throws Exception {
    RuleMetrics leasing = TollgateMetrics.forRule("unit-jmx-lease");
    RuleMetrics plain = TollgateMetrics.forRule("unit-jmx-plain");
    TollgateMetrics.showLeases(java.util.Map.of("unit-jmx-lease", leaseCounts()));
    long[] read = {
      leasing.getLeaseTokens(), leasing.getLeases(), leasing.getLeasesAhead(),
      leasing.getLeasesLost(), leasing.getLeasedTokens(), leasing.getLeasedTokensUnused(),
      leasing.getAllowedFromLease(), leasing.getDecidedByRedis(), leasing.getWaitedForLease(),
      leasing.getDecidedByShare()
    };
    assertEquals("[100, 1, 2, 3, 4, 5, 6, 7, 8, 9]", Arrays.toString(read));
    assertEquals(-1, plain.getAllowedFromLease());
    assertEquals(-1, plain.getLeaseTokens());
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName(JmxExporter.objectName("unit-jmx-lease"));
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!server.isRegistered(name) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(6L, server.getAttribute(name, "AllowedFromLease"));
    assertEquals(9L, server.getAttribute(name, "DecidedByShare"));
  }
}
