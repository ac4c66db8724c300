package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-rule counters end to end: drive a test app, then read them from the Prometheus endpoint and
 * over JMX, and check the exact counts.
 */
class MetricsIT {

  @TempDir Path dir;

  @Test
  void prometheusAndJmxCountEveryDecisionExactly() throws Exception {
    Path rules = RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: ip",
        "    limit: 3",
        "    period: 1h",
        "  - name: orders-shadow",
        "    match:",
        "      path: /api/orders/*",
        "    key: ip",
        "    limit: 1",
        "    period: 1h",
        "    mode: shadow");
    int metricsPort = ForkedApp.freePort();
    try (ForkedApp app = ForkedApp.app("servlet-jakarta")
        .withAgent("config=" + rules + ",metrics-port=" + metricsPort)
        .start()) {
      String started = ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));
      assertTrue(started.contains("http://127.0.0.1:" + metricsPort + "/metrics"), started);

      ItSupport.assertAllowedThenRefused(app, "/hello", 3, 4);
      ItSupport.assertAllowedThenRefused(app, "/api/orders/1", 5, 0);
      assertEquals(200, app.send("POST", "/hello", java.util.Map.of()).statusCode());

      HttpResponse<String> scrape = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
              .timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, scrape.statusCode());
      assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
      String text = scrape.body();

      assertMetric(text, "tollgate_rule_allowed_total{rule=\"hello-per-ip\"}", 3);
      assertMetric(text, "tollgate_rule_refused_total{rule=\"hello-per-ip\"}", 4);
      assertMetric(text, "tollgate_rule_would_refuse_total{rule=\"hello-per-ip\"}", 0);
      assertMetric(text, "tollgate_rule_backend_errors_total{rule=\"hello-per-ip\"}", 0);
      assertMetric(text, "tollgate_rule_decision_seconds_count{rule=\"hello-per-ip\"}", 7);

      assertMetric(text, "tollgate_rule_allowed_total{rule=\"orders-shadow\"}", 1);
      assertMetric(text, "tollgate_rule_refused_total{rule=\"orders-shadow\"}", 0);
      assertMetric(text, "tollgate_rule_would_refuse_total{rule=\"orders-shadow\"}", 4);
      assertMetric(text, "tollgate_rule_decision_seconds_count{rule=\"orders-shadow\"}", 5);

      assertTrue(text.contains("# TYPE tollgate_rule_refused_total counter"), text);
      Matcher heaviest = Pattern.compile(
          "tollgate_rule_refused_key_requests\\{rule=\"hello-per-ip\",rank=\"1\",key=\"([^\"]+)\"\\} 4")
          .matcher(text);
      assertTrue(heaviest.find(), "the refused client is the heaviest key:\n" + text);
      assertTrue(heaviest.group(1).contains("127.0.0.1"), heaviest.group(0));

      assertJmx(app);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static void assertJmx(ForkedApp app) throws Exception {
    ObjectName hello = new ObjectName("io.tollgate:type=Rule,name=hello-per-ip");
    try (JMXConnector connector = ItSupport.jmx(app, hello)) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      Set<ObjectName> names = server.queryNames(new ObjectName("io.tollgate:type=Rule,*"), null);
      assertEquals(Set.of(hello, new ObjectName("io.tollgate:type=Rule,name=orders-shadow")), names);
      assertEquals(3L, server.getAttribute(hello, "Allowed"));
      assertEquals(4L, server.getAttribute(hello, "Refused"));
      assertEquals(0L, server.getAttribute(hello, "WouldRefuse"));
      assertEquals(7L, server.getAttribute(hello, "Decisions"));
      assertTrue((Long) server.getAttribute(hello, "DecisionNanosMax") > 0);
      String[] top = (String[]) server.getAttribute(hello, "TopRefusedKeys");
      assertEquals(1, top.length, String.join(", ", top));
      assertTrue(top[0].endsWith("=4") && top[0].contains("127.0.0.1"), top[0]);
      ObjectName orders = new ObjectName("io.tollgate:type=Rule,name=orders-shadow");
      assertEquals(4L, server.getAttribute(orders, "WouldRefuse"));
      assertArrayEquals(new Object[] {1L, 0L},
          new Object[] {server.getAttribute(orders, "Allowed"), server.getAttribute(orders, "Refused")});
    }
  }

  private static void assertMetric(String text, String series, long expected) {
    for (String line : text.split("\n")) {
      if (line.startsWith(series + " ")) {
        assertEquals(Long.toString(expected), line.substring(series.length() + 1), line);
        return;
      }
    }
    throw new AssertionError("no series " + series + " in:\n" + text);
  }
}
