package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * RESTEasy (WildFly's, Open Liberty's) and Apache CXF (TomEE's) as Jersey is: route templates with
 * the context path, asynchronous resources refused before they are suspended, refusals that the
 * application's {@code ExceptionMapper} (which rewrites every {@code WebApplicationException} into
 * a 418 in these apps) cannot rewrite, and each request counted once beside the servlet entry.
 * Each app deployed under the context path {@code /shop}, in its own JVM with the agent.
 */
class JaxRsImplementationsIT {

  @TempDir Path dir;

  static Stream<Arguments> appsAndJdks() {
    List<Arguments> cases = new ArrayList<>();
    for (String app : List.of("jaxrs-resteasy", "jaxrs-cxf")) {
      for (Jdk jdk : Jdk.all()) {
        cases.add(Arguments.of(app, jdk));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void routeRulesWithTheContextPathOnPlainAndAsynchronousResources(String appName, Jdk jdk)
      throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: orders",
            "    match:",
            "      route: \"/shop/api/orders/{id}\"",
            "    limit: 2",
            "    period: 1m",
            "  - name: async",
            "    match:",
            "      route: \"/shop/async/hello\"",
            "    limit: 2",
            "    period: 1m",
            "  - name: everything",
            "    match:",
            "      path: /shop/**",
            "    limit: 6",
            "    period: 1m");
    try (ForkedApp app = ForkedApp.app(appName).on(jdk).jvmOption("-Dtestapp.context=/shop")
        .withAgent("config=" + rules).start()) {
      assertAll(
          () -> allowsTwiceThenRefuses(app, "/shop/api/orders/", "orders", "order "),
          () -> allowsTwiceThenRefuses(app, "/shop/async/hello?", "async", "hello async"));
      // 6 requests so far, each counted once by the path rule at the servlet entry point
      assertEquals(429, app.get("/shop/health").statusCode(), "the 7th request of the path rule");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void aRouteRuleKeyedByTheUserSeesTheUserTheApplicationsFilterSet(String appName, Jdk jdk)
      throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: orders-per-user",
            "    match:",
            "      route: \"/api/orders/{id}\"",
            "    key: principal",
            "    limit: 1",
            "    period: 1m");
    try (ForkedApp app = ForkedApp.app(appName).on(jdk).withAgent("config=" + rules).start()) {
      assertEquals(200, asUser(app, "alice").statusCode(), "alice's first");
      assertEquals(429, asUser(app, "alice").statusCode(), "alice's second");
      assertEquals(200, asUser(app, "bob").statusCode(), "bob has his own budget");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /** The test apps' filter makes the X-Test-User header the request's user principal. */
  private static HttpResponse<String> asUser(ForkedApp app, String user) throws Exception {
    return app.send("GET", "/api/orders/1", Map.of("X-Test-User", user));
  }

  private static void allowsTwiceThenRefuses(ForkedApp app, String path, String rule, String body)
      throws Exception {
    for (int i = 1; i <= 2; i++) {
      HttpResponse<String> allowed = app.get(path + i);
      assertEquals(200, allowed.statusCode(), path + i + ": " + allowed.body());
      assertTrue(allowed.body().startsWith(body), allowed.body());
      assertEquals("\"" + rule + "\";r=" + (2 - i),
          allowed.headers().firstValue("RateLimit").orElse("").replaceAll(";t=\\d+$", ""),
          "RateLimit of " + path + i);
    }
    HttpResponse<String> refused = app.get(path + 3);
    assertEquals(429, refused.statusCode(), "not the mapper's 418: " + refused.body());
    assertEquals(rule, refused.headers().firstValue("Tollgate-Rule").orElse(null));
    assertTrue(refused.headers().firstValue("Retry-After").isPresent(), refused.headers().toString());
    assertTrue(refused.body().contains("\"rule\":\"" + rule + "\""), refused.body());
    assertTrue(
        refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
        refused.headers().toString());
  }
}
