package io.tollgate.it;

import static io.tollgate.it.ItSupport.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The refusal's body on servlet, Spring MVC and Jersey: the operator's {@code response:} with its
 * placeholders filled in; without one, an HTML page for a browser and the unchanged
 * problem+json for an API client; and the refusal's headers whatever the body. GET /hello has a
 * response of its own, POST /hello the default; each client ({@code X-Client}) may send one
 * request a minute to each. And on Redis, an outage's 503 with the rule's body.
 */
class RefusalResponseIT {

  static final String FIREFOX = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"servlet-jakarta", "spring-boot3", "jaxrs-jakarta"})
  void theConfiguredResponseOrTheNegotiatedDefault(String appName) throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: custom",
            "    match: { path: /hello, methods: [GET] }",
            "    key: header:X-Client",
            "    limit: 1",
            "    period: 1m",
            "    response:",
            "      status: 503",
            "      body: \"busy: {rule}, retry in {retryAfter}s ({limit} per {period})\"",
            "      content-type: text/plain",
            "  - name: default",
            "    match: { path: /hello, methods: [POST] }",
            "    key: header:X-Client",
            "    limit: 1",
            "    period: 1m");
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      HttpResponse<String> custom = refusedSecond(app, "GET", "a", FIREFOX);
      assertEquals(503, custom.statusCode());
      assertRefusalHeaders(custom, "custom");
      assertTrue(header(custom, "Content-Type").startsWith("text/plain"), header(custom, "Content-Type"));
      assertEquals("busy: custom, retry in " + header(custom, "Retry-After") + "s (1 per 1m)",
          custom.body());

      HttpResponse<String> page = refusedSecond(app, "POST", "browser", FIREFOX);
      assertEquals(429, page.statusCode());
      assertRefusalHeaders(page, "default");
      assertTrue(header(page, "Content-Type").startsWith("text/html"), header(page, "Content-Type"));
      assertTrue(page.body().startsWith("<!DOCTYPE html>"), page.body());
      assertTrue(page.body().contains("<title>429 Too Many Requests</title>"), page.body());
      assertTrue(page.body().contains("Please try again in " + header(page, "Retry-After") + " seconds."),
          page.body());
      assertTrue(page.body().contains("<code>default</code>"), page.body());

      // (Accept: application/json alone gets a 406 from Jersey before any resource method runs,
      // the app's /hello writes text: so each of these also accepts text)
      for (String accept : new String[] {
          "*/*", "text/plain, application/json;q=0.9", "text/plain, text/html, application/problem+json"}) {
        HttpResponse<String> problem = refusedSecond(app, "POST", "api " + accept, accept);
        assertEquals(429, problem.statusCode(), accept + ": " + problem.headers().map() + " " + problem.body());
        assertRefusalHeaders(problem, "default");
        assertTrue(header(problem, "Content-Type").startsWith("application/problem+json"),
            accept + ": " + header(problem, "Content-Type"));
        String wait = header(problem, "Retry-After");
        assertEquals(
            "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
                + "\"title\":\"Too Many Requests\",\"status\":429,"
                + "\"detail\":\"Rate limit 'default' exceeded; retry after " + wait + " seconds.\","
                + "\"violated-policies\":[\"default\"],"
                + "\"rule\":\"default\",\"retryAfter\":" + wait + "}\n",
            problem.body(), accept);
      }
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * Redis unreachable under {@code on-failure: deny}: still 503 (an outage must not look like
   * clients sending too much), though the rule's status says 429; the rule's body is used.
   */
  @Test
  @ExtendWith(RedisServerExtension.class)
  void anOutageKeepsItsStatusAndTakesTheConfiguredBody(@PrivateRedis RedisServer redis)
      throws Exception {
    String rule = "outage-" + UUID.randomUUID().toString().substring(0, 8);
    Path rules =
        RulesFiles.write(
            dir,
            "outage.yaml",
            "backend: redis",
            "redis:",
            "  uri: " + redis.uri(),
            "  timeout: 100ms",
            "rules:",
            "  - name: " + rule,
            "    match: { path: /hello }",
            "    key: global",
            "    limit: 1000",
            "    period: 1h",
            "    on-failure: deny",
            "    response: { status: 429, body: \"{rule}: retry in {retryAfter}s\" }");
    try (ForkedApp app =
        ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + rules).start()) {
      assertEquals(200, app.get("/hello").statusCode(), "decided by Redis");
      redis.kill();
      HttpResponse<String> denied = app.get("/hello");
      assertEquals(503, denied.statusCode(), denied.body());
      assertEquals(rule, header(denied, "Tollgate-Rule"));
      assertEquals("no-store", header(denied, "Cache-Control"));
      assertTrue(header(denied, "Content-Type").startsWith("text/plain"), header(denied, "Content-Type"));
      assertEquals(rule + ": retry in " + header(denied, "Retry-After") + "s", denied.body());
    }
  }

  /** The refusal of the second request a new client sends (the first is allowed). */
  private static HttpResponse<String> refusedSecond(
      ForkedApp app, String method, String client, String accept) throws Exception {
    Map<String, String> headers = new HashMap<>();
    headers.put("X-Client", client);
    headers.put("Accept", accept);
    assertEquals(200, app.send(method, "/hello", headers).statusCode(), method + " by " + client);
    return app.send(method, "/hello", headers);
  }

  private static void assertRefusalHeaders(HttpResponse<String> refused, String rule) {
    assertEquals(rule, header(refused, "Tollgate-Rule"));
    assertEquals("no-store", header(refused, "Cache-Control"));
    String retryAfter = header(refused, "Retry-After");
    assertNotNull(retryAfter);
    long seconds = Long.parseLong(retryAfter);
    assertTrue(seconds >= 1 && seconds <= 60, retryAfter);
    assertEquals("\"" + rule + "\";q=1;w=60", header(refused, "RateLimit-Policy"));
    assertTrue(header(refused, "RateLimit").startsWith("\"" + rule + "\";r=0;t="),
        header(refused, "RateLimit"));
  }
}
