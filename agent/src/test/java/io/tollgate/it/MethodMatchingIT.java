package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rule's {@code methods} over real HTTP, against the method the application runs: a HEAD runs
 * the GET handler, so a rule on GET counts it; a POST that the application turns into a DELETE
 * (Spring's HiddenHttpMethodFilter, {@code _method=DELETE}) counts against a rule on DELETE, and
 * still against a rule on POST. Periods are an hour, so nothing refills during the test.
 */
class MethodMatchingIT {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3"})
  void aRuleOnGetCountsHead(String appName) throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: orders",
            "    match: { path: /api/orders/*, methods: [GET] }",
            "    key: global",
            "    limit: 3",
            "    period: 1h");
    try (ForkedApp app = ForkedApp.app(appName).withAgent("config=" + rules).start()) {
      String[] methods = {"GET", "HEAD", "HEAD"};
      for (int i = 0; i < methods.length; i++) {
        HttpResponse<String> ok = app.send(methods[i], "/api/orders/7", Map.of());
        assertEquals(200, ok.statusCode(), methods[i] + " #" + (i + 1));
        String quota = ok.headers().firstValue("RateLimit").orElse("none");
        assertTrue(
            quota.startsWith("\"orders\";r=" + (2 - i) + ";"),
            methods[i] + " #" + (i + 1) + " carries the quota headers: " + quota);
      }
      HttpResponse<String> head = app.send("HEAD", "/api/orders/7", Map.of());
      assertEquals(429, head.statusCode(), "a fourth HEAD is refused");
      assertEquals("orders", head.headers().firstValue("Tollgate-Rule").orElse(""));
      assertEquals(429, app.get("/api/orders/7").statusCode(), "and so is a GET");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private Path deleteAndPostRules() throws Exception {
    return RulesFiles.write(
        dir,
        "rules.yaml",
        "rules:",
        "  - name: deletes",
        "    match: { path: /api/orders/*, methods: [DELETE] }",
        "    key: global",
        "    limit: 2",
        "    period: 1h",
        "  - name: posts",
        "    match: { path: /api/orders/*, methods: [POST] }",
        "    key: global",
        "    limit: 100",
        "    period: 1h");
  }

  @Test
  void aPostTheApplicationOverridesIntoADeleteCountsAgainstBothRules() throws Exception {
    try (ForkedApp app =
        ForkedApp.app("spring-boot3")
            .withAgent("config=" + deleteAndPostRules())
            .jvmOption("-Dspring.mvc.hiddenmethod.filter.enabled=true")
            .start()) {
      HttpResponse<String> real = app.send("DELETE", "/api/orders/7", Map.of());
      assertEquals(200, real.statusCode());
      assertEquals("deleted order 7\n", real.body());

      // _method in a form body: read by the application's filter, never by the agent
      HttpResponse<String> overridden = postForm(app, "/api/orders/7", "_method=DELETE");
      assertEquals(200, overridden.statusCode());
      assertEquals("deleted order 7\n", overridden.body(), "the application ran its DELETE");
      String policy = overridden.headers().firstValue("RateLimit-Policy").orElse("");
      assertTrue(policy.contains("\"deletes\"") && policy.contains("\"posts\""), policy);

      HttpResponse<String> third = postForm(app, "/api/orders/7?_method=DELETE", "");
      assertEquals(429, third.statusCode(), "the third DELETE, overridden in the query");
      assertEquals("deletes", third.headers().firstValue("Tollgate-Rule").orElse(""));
      assertEquals(429, app.send("DELETE", "/api/orders/7", Map.of()).statusCode());
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void aMethodOverrideTheApplicationIgnoresCountsAsWhatWasSent() throws Exception {
    try (ForkedApp app =
        ForkedApp.app("spring-boot3").withAgent("config=" + deleteAndPostRules()).start()) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> post = postForm(app, "/api/orders/7", "_method=DELETE");
        assertEquals(405, post.statusCode(), "no filter: the application saw a POST");
        assertEquals(
            "\"posts\";q=100;w=3600",
            post.headers().firstValue("RateLimit-Policy").orElse(""),
            "only the POST rule counted it");
      }
      assertEquals(200, app.send("DELETE", "/api/orders/7", Map.of()).statusCode());
      assertEquals(200, app.send("DELETE", "/api/orders/7", Map.of()).statusCode());
      assertEquals(429, app.send("DELETE", "/api/orders/7", Map.of()).statusCode());
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static HttpResponse<String> postForm(ForkedApp app, String path, String form)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
