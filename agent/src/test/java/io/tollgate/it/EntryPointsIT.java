package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same suite on every test app and both JDKs: rules on route templates are decided where the
 * framework knows the route, rules on paths at the first entry point, and every request counts
 * exactly once, whatever filters, forwards, includes, async and error dispatches it passes.
 */
class EntryPointsIT {

  /** Apps whose framework reports route templates; plain servlets match the same URLs by path. */
  private static final List<String> ROUTING_APPS =
      List.of("spring-boot2", "spring-boot3", "spring-boot4", "jaxrs-javax", "jaxrs-jakarta",
          "jaxrs-resteasy", "jaxrs-cxf");

  @TempDir Path dir;

  static Stream<Arguments> appsAndJdks() {
    List<Arguments> cases = new ArrayList<>();
    for (String app :
        List.of("servlet-javax", "servlet-jakarta", "spring-boot2", "spring-boot3",
            "spring-boot4", "jaxrs-javax", "jaxrs-jakarta", "jaxrs-resteasy", "jaxrs-cxf")) {
      for (Jdk jdk : Jdk.all()) {
        cases.add(Arguments.of(app, jdk));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void routeRulesPathRulesAndExactlyOnceCounting(String appName, Jdk jdk) throws Exception {
    boolean routing = ROUTING_APPS.contains(appName);
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: orders",
            "    match:",
            routing ? "      route: \"/api/orders/{id}\"" : "      path: /api/orders/*",
            "    key: ip",
            "    limit: 3",
            "    period: 1m",
            "  - name: hello-get",
            "    match:",
            "      path: /hello",
            "      methods: [GET]",
            "    limit: 5",
            "    period: 1m",
            "  - name: dispatches",
            "    match:",
            "      path: [/async/hello, /forward/hello, /include/hello, /error/boom]",
            "    limit: 12",
            "    period: 1m");
    try (ForkedApp app = ForkedApp.app(appName).on(jdk).withAgent("config=" + rules).start()) {
      assertAll(
          () -> routeRuleAllowsThreeOrdersThenRefuses(app),
          () -> getHelloRuleAllowsExactlyFiveOfEightAndLeavesPostAlone(app),
          () -> everyDispatchKindCountsOnce(app, appName));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static void routeRuleAllowsThreeOrdersThenRefuses(ForkedApp app) throws Exception {
    for (int id = 1; id <= 3; id++) {
      HttpResponse<String> response = app.get("/api/orders/" + id);
      assertEquals(200, response.statusCode(), "order " + id);
      assertEquals("order " + id, response.body().trim());
      assertEquals(
          "\"orders\";r=" + (3 - id), rateLimit(response).replaceAll(";t=\\d+$", ""),
          "RateLimit of order " + id);
    }
    HttpResponse<String> refused = app.get("/api/orders/4");
    assertEquals(429, refused.statusCode(), "order 4: " + refused.body());
    assertEquals("orders", refused.headers().firstValue("Tollgate-Rule").orElse(null));
    assertTrue(refused.headers().firstValue("Retry-After").isPresent());
    assertTrue(refused.body().contains("\"rule\":\"orders\""), refused.body());
    assertTrue(
        refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
        refused.headers().toString());
  }

  private static void getHelloRuleAllowsExactlyFiveOfEightAndLeavesPostAlone(ForkedApp app)
      throws Exception {
    int allowed = 0;
    for (int i = 0; i < 8; i++) {
      int status = app.get("/hello").statusCode();
      assertTrue(status == 200 || status == 429, "status " + status);
      allowed += status == 200 ? 1 : 0;
    }
    assertEquals(5, allowed, "GET /hello allowed");
    for (int i = 0; i < 8; i++) {
      assertEquals(200, app.send("POST", "/hello", Map.of()).statusCode(), "POST /hello " + i);
    }
  }

  /**
   * 12 requests through async, forward, include and error dispatches against a budget of 12: all
   * pass only if each counted once; the 13th is refused.
   */
  private static void everyDispatchKindCountsOnce(ForkedApp app, String appName) throws Exception {
    List<String> paths = new ArrayList<>(List.of("/async/hello", "/error/boom"));
    if (!appName.equals("jaxrs-jakarta")) {
      paths.add("/forward/hello");
    }
    if (appName.startsWith("servlet-") || appName.startsWith("spring-boot")) {
      paths.add("/include/hello");
    }
    int sent = 0;
    while (sent < 12) {
      for (String path : paths) {
        if (sent == 12) {
          break;
        }
        HttpResponse<String> response = app.get(path);
        int expected = path.equals("/error/boom") ? 500 : 200;
        assertEquals(expected, response.statusCode(),
            "request " + (sent + 1) + " of 12 to " + path + " must pass: " + response.body());
        sent++;
      }
    }
    HttpResponse<String> thirteenth = app.get(paths.get(0));
    assertEquals(429, thirteenth.statusCode(), "the 13th request is over the budget of 12");
    assertNotEquals("", thirteenth.body());
  }

  private static String rateLimit(HttpResponse<String> response) {
    return response.headers().firstValue("RateLimit")
        .orElseThrow(() -> new AssertionError("no RateLimit header: " + response.headers()));
  }
}
