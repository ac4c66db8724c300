package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code algorithm: adaptive-concurrency} over HTTP, with the agent in the app's JVM, on a
 * servlet container, Spring MVC and Jersey on Grizzly (no servlet API): a request over the limit
 * is refused with 503 and a short {@code Retry-After}, in shadow mode it passes and is reported,
 * errors of the app shrink the limit, and the gauges are on the Prometheus endpoint.
 *
 * <p>A request is held in flight by the agent itself: a gcra rule with {@code max-delay} paces the
 * requests that carry {@code X-Hold}, and the request paced holds its adaptive permit meanwhile.
 * The limit is pinned to 1 ({@code min}, {@code initial} and {@code max}), so that one held
 * request fills it.
 */
class AdaptiveConcurrencyIT {

  @TempDir Path dir;

  private static final Map<String, String> HOLD = Map.of("X-Hold", "1");

  private Path rules(String mode) throws Exception {
    return RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: app-guard",
        "    algorithm: adaptive-concurrency",
        "    match:",
        "      path: /hello",
        "      methods: [GET]",
        "    key: global",
        "    min: 1",
        "    initial: 1",
        "    max: 1",
        "    mode: " + mode,
        "  - name: hold-one",
        "    algorithm: gcra",
        "    match:",
        "      path: /hello",
        "      headers:",
        "        X-Hold: present",
        "    key: global",
        "    limit: 1",
        "    period: 8s",
        "    max-delay: 9s",
        "  - name: boom-guard",
        "    algorithm: adaptive-concurrency",
        "    match:",
        "      path: /error/boom",
        "    key: global",
        "    min: 2",
        "    initial: 40",
        "    max: 40");
  }

  /**
   * Sends a request that the gcra rule holds for about 8 s (the first one of the rule passes at
   * once, so one is sent first), and waits until the adaptive rule counts it in flight.
   */
  private static CompletableFuture<HttpResponse<String>> holdOne(ForkedApp app, int metricsPort)
      throws Exception {
    assertEquals(200, app.send("GET", "/hello", HOLD).statusCode(), "the gcra rule's first passes");
    CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> {
      try {
        return app.send("GET", "/hello", HOLD);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (gauge(scrape(metricsPort), "tollgate_adaptive_in_flight", "app-guard") < 1) {
      assertTrue(System.nanoTime() < deadline && !held.isDone(),
          "the held request counts in flight; " + app.agentLog());
      Thread.sleep(20);
    }
    return held;
  }

  @ParameterizedTest
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "jaxrs-jakarta"})
  void aRequestOverTheLimitIsRefusedWith503AndAShortRetryAfter(String name) throws Exception {
    int metricsPort = ForkedApp.freePort();
    try (ForkedApp app = ForkedApp.app(name)
        .withAgent("config=" + rules("enforce") + ",metrics-port=" + metricsPort)
        .start()) {
      ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));
      CompletableFuture<HttpResponse<String>> held = holdOne(app, metricsPort);

      HttpResponse<String> refused = app.get("/hello");
      assertEquals(503, refused.statusCode(), refused.body());
      long retryAfter = Long.parseLong(ItSupport.header(refused, "Retry-After"));
      assertTrue(Set.of(1L, 2L, 3L).contains(retryAfter), "short and jittered: " + retryAfter);
      assertEquals("app-guard", ItSupport.header(refused, "Tollgate-Rule"));
      assertNull(ItSupport.header(refused, "RateLimit"), "no quota to tell");
      assertNull(ItSupport.header(refused, "RateLimit-Policy"), "no quota to tell");
      assertTrue(refused.body().contains("\"status\":503"), refused.body());
      assertTrue(refused.body().contains(
          "\"type\":\"https://iana.org/assignments/http-problem-types#temporary-reduced-capacity\""),
          "the server is short of capacity, the client did nothing wrong: " + refused.body());

      assertEquals(200, held.get(60, TimeUnit.SECONDS).statusCode(), "the held request ran");
      HttpResponse<String> after = app.get("/hello");
      assertEquals(200, after.statusCode(), "its permit was given back");
      assertNull(ItSupport.header(after, "RateLimit"), "no quota headers on allowed responses");

      String text = scrapeOnceNoneInFlight(metricsPort, app);
      assertEquals(1, gauge(text, "tollgate_adaptive_limit", "app-guard"), text);
      assertTrue(text.contains("tollgate_rule_refused_total{rule=\"app-guard\"} 1\n"), text);
      assertTrue(text.contains("tollgate_adaptive_no_load_latency_seconds{rule=\"app-guard\"} "),
          text);
      assertTrue(text.contains("tollgate_adaptive_recent_latency_seconds{rule=\"app-guard\"} "),
          text);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "jaxrs-jakarta"})
  void errorsOfTheAppShrinkTheLimitAndTheMoveIsLogged(String name) throws Exception {
    int metricsPort = ForkedApp.freePort();
    try (ForkedApp app = ForkedApp.app(name)
        .withAgent("config=" + rules("enforce") + ",metrics-port=" + metricsPort)
        .start()) {
      ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));
      // every request fails (an exception, a 500): each window of them cuts the limit by 10%
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (ItSupport.count(app, "rule 'boom-guard' (adaptive-concurrency): limit 40 -> ") == 0) {
        assertTrue(System.nanoTime() < deadline,
            "the limit fell below 20 within a minute of failures; " + app.agentLog() + "\n" + scrape(metricsPort));
        int status = app.get("/error/boom").statusCode();
        assertTrue(status == 500 || status == 503, "status " + status);
      }
      String line = ItSupport.awaitCount(
          app, "rule 'boom-guard' (adaptive-concurrency): limit 40 -> ", 1, Duration.ofSeconds(1));
      Matcher moved = Pattern.compile("limit 40 -> (\\d+)").matcher(line);
      assertTrue(moved.find() && Integer.parseInt(moved.group(1)) < 20, line);
      assertTrue(gauge(scrape(metricsPort), "tollgate_adaptive_limit", "boom-guard") < 20);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"servlet-jakarta"})
  void inShadowModeTheRequestOverTheLimitPassesAndIsReported(String name) throws Exception {
    int metricsPort = ForkedApp.freePort();
    try (ForkedApp app = ForkedApp.app(name)
        .withAgent("config=" + rules("shadow") + ",metrics-port=" + metricsPort)
        .start()) {
      ItSupport.awaitCount(app, "Prometheus metrics at", 1, Duration.ofSeconds(30));
      CompletableFuture<HttpResponse<String>> held = holdOne(app, metricsPort);

      HttpResponse<String> passed = app.get("/hello");
      assertEquals(200, passed.statusCode(), "shadow mode never refuses");
      assertTrue(gauge(scrape(metricsPort), "tollgate_adaptive_in_flight", "app-guard") >= 1,
          "the held one still counts");
      ItSupport.awaitCount(app, "rule 'app-guard' would refuse key", 1, Duration.ofSeconds(30));
      assertEquals(200, held.get(60, TimeUnit.SECONDS).statusCode());
      // every permit given back, the would-refuse request's too
      String text = scrapeOnceNoneInFlight(metricsPort, app);
      assertTrue(text.contains("tollgate_rule_would_refuse_total{rule=\"app-guard\"} 1\n"), text);
      assertTrue(text.contains("tollgate_rule_refused_total{rule=\"app-guard\"} 0\n"), text);
      assertJmx(app);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /** The same over JMX: the rule's MBean has the gauges. */
  private static void assertJmx(ForkedApp app) throws Exception {
    ObjectName guard = new ObjectName("io.tollgate:type=Rule,name=app-guard");
    ObjectName gcra = new ObjectName("io.tollgate:type=Rule,name=hold-one");
    try (JMXConnector connector = ItSupport.jmx(app, guard, gcra)) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      assertEquals(1, server.getAttribute(guard, "ConcurrencyLimit"));
      assertEquals(0, server.getAttribute(guard, "InFlight"));
      assertEquals(1L, server.getAttribute(guard, "WouldRefuse"));
      assertTrue((Double) server.getAttribute(guard, "NoLoadLatencyMillis") >= 0);
      assertTrue((Double) server.getAttribute(guard, "RecentLatencyMillis") >= 0);
      assertEquals(-1, server.getAttribute(gcra, "ConcurrencyLimit"), "not adaptive");
    }
  }

  /**
   * The metrics once the rule counts no request in flight, within 30 s: a request's permit is
   * given back when its entry point returns, a moment after its response may have reached the
   * client (a busy machine's CI once scraped 1 right after the last 200).
   */
  private static String scrapeOnceNoneInFlight(int metricsPort, ForkedApp app) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String text = scrape(metricsPort);
    while (gauge(text, "tollgate_adaptive_in_flight", "app-guard") != 0) {
      assertTrue(System.nanoTime() < deadline,
          "every permit given back within 30 s: " + text + "\n" + app.agentLog());
      Thread.sleep(20);
      text = scrape(metricsPort);
    }
    return text;
  }

  static String scrape(int port) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    return response.body();
  }

  /** A gauge's value for a rule; -1 when absent (no decision of the rule yet). */
  static double gauge(String text, String name, String rule) {
    String series = name + "{rule=\"" + rule + "\"} ";
    for (String line : List.of(text.split("\n"))) {
      if (line.startsWith(series)) {
        return Double.parseDouble(line.substring(series.length()));
      }
    }
    return -1;
  }
}
