package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client retrying in a loop, ignoring its {@code Retry-After}, shows as a retry storm: every
 * refusal after its first is an early retry, in the Prometheus counter, over JMX with the client
 * among the top keys, and in one log line that names it and how early it came back.
 */
class RetryStormIT {

  private static final int REFUSED = 20;

  @TempDir Path dir;

  @Test
  void aClientRetryingInALoopShowsInTheMetricJmxAndTheLog() throws Exception {
    Path rules = RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: hello-per-ip",
        "    match:",
        "      path: /hello",
        "    key: ip",
        "    limit: 1",
        "    period: 1h");
    int metricsPort = ForkedApp.freePort();
    try (ForkedApp app = ForkedApp.app("servlet-jakarta")
        .withAgent("config=" + rules + ",metrics-port=" + metricsPort)
        .start()) {
      ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));

      // told to wait about an hour after its first refusal, it comes straight back, 19 times
      ItSupport.assertAllowedThenRefused(app, "/hello", 1, REFUSED);

      String line = ItSupport.awaitCount(app, "retried", 1, Duration.ofSeconds(30));
      assertTrue(line.matches(".*rule 'hello-per-ip': key '[^']*127\\.0\\.0\\.1[^']*' retried"
          + " \\d+\\.\\d s after being told 3[56]\\d\\d s \\(a client retrying before its"
          + " Retry-After: see tollgate_early_retries_total\\)"), line);
      assertEquals(1, ItSupport.count(app, "retried"), "one line a minute per key");

      String text = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
              .timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertTrue(text.contains("# TYPE tollgate_early_retries_total counter\n"), text);
      assertTrue(text.contains("tollgate_early_retries_total{rule=\"hello-per-ip\"} "
          + (REFUSED - 1) + "\n"), text);

      ObjectName hello = new ObjectName("io.tollgate:type=Rule,name=hello-per-ip");
      try (JMXConnector connector = ItSupport.jmx(app, hello)) {
        MBeanServerConnection server = connector.getMBeanServerConnection();
        assertEquals((long) REFUSED - 1, server.getAttribute(hello, "EarlyRetries"));
        String[] top = (String[]) server.getAttribute(hello, "TopEarlyRetryKeys");
        assertEquals(1, top.length, String.join(", ", top));
        assertTrue(top[0].matches("[^=]*127\\.0\\.0\\.1[^=]*=" + (REFUSED - 1)
            + " \\(told 3[56]\\d\\d s, came back after \\d+\\.\\d s\\)"), top[0]);
      }
      ServletAppsIT.assertAgentLogClean(app);
    }
  }
}
