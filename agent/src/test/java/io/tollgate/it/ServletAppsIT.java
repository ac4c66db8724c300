package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The foundation, end to end: a plain servlet app in its own JVM with {@code -javaagent}, a limit
 * of 5 a minute, and real HTTP requests. On both servlet namespaces and both JDKs.
 */
class ServletAppsIT {

  private static final Pattern RATE_LIMIT = Pattern.compile("\"hello-per-ip\";r=(\\d+);t=(\\d+)");

  @TempDir Path dir;

  static Stream<Arguments> appsAndJdks() {
    List<Arguments> cases = new ArrayList<>();
    for (String app : new String[] {"servlet-javax", "servlet-jakarta"}) {
      for (Jdk jdk : Jdk.all()) {
        cases.add(Arguments.of(app, jdk));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void fiveAllowedThenSevenRefusedWithRetryAfterAndQuotaHeaders(String appName, Jdk jdk)
      throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ForkedApp app =
        ForkedApp.app(appName).on(jdk).withAgent("config=" + rules).start()) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        HttpResponse<String> response = app.get("/hello");
        statuses.add(response.statusCode());
        if (i < 5) {
          assertAllowed(response, 4 - i);
        } else {
          assertRefused(response);
        }
      }
      assertEquals(List.of(200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429), statuses);

      // The rule is on GET only: POST /hello is untouched.
      assertEquals(200, app.send("POST", "/hello", Map.of()).statusCode());
      assertAgentLogClean(app);
      assertTrue(
          app.agentLog().stream().anyMatch(l -> l.contains("loaded 1 rule: hello-per-ip")),
          "the log says which rules were loaded:\n" + app.agentLog());
      assertTrue(
          app.agentLog().stream().anyMatch(l -> l.contains("instrumented ")),
          "the log names the instrumented classes:\n" + app.agentLog());
    }
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void withoutTheAgentEveryRequestPasses(String appName, Jdk jdk) throws Exception {
    try (ForkedApp app = ForkedApp.app(appName).on(jdk).start()) {
      for (int i = 0; i < 12; i++) {
        HttpResponse<String> response = app.get("/hello");
        assertEquals(200, response.statusCode());
        assertEquals("hello", response.body().trim());
        assertTrue(response.headers().firstValue("RateLimit").isEmpty());
      }
    }
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("appsAndJdks")
  void aFailureInsideTheAgentLetsRequestsThroughAndIsLogged(String appName, Jdk jdk)
      throws Exception {
    Path rules = RulesFiles.helloPerIp(dir, 5);
    try (ForkedApp app =
        ForkedApp.app(appName)
            .on(jdk)
            .withAgent("config=" + rules)
            .jvmOption("-Dtollgate.test.inject-failure=true")
            .start()) {
      for (int i = 0; i < 12; i++) {
        HttpResponse<String> response = app.get("/hello");
        assertEquals(200, response.statusCode(), "request " + i + " must pass");
        assertEquals("hello", response.body().trim());
      }
      // Each entry point a request passes fails on its own, Tomcat's host valve and then the
      // servlet's (the failed first one marked nothing): each is reported, once a minute each.
      for (String entry : new String[] {"a Tomcat request", "a servlet request"}) {
        String line = app.awaitOutput("internal error while deciding " + entry,
            Duration.ofSeconds(5));
        assertTrue(line.startsWith("[tollgate] ERROR"), line);
        assertTrue(line.contains("failure injected for testing"), line);
        long reported = app.agentLog().stream()
            .filter(l -> l.contains("internal error while deciding " + entry)).count();
        assertEquals(1, reported, entry + ": logged once a minute, not once per request");
      }
      assertEquals(2, app.agentLog().stream()
          .filter(l -> l.contains("internal error while deciding")).count(), "no other");
    }
  }

  private static void assertAllowed(HttpResponse<String> response, int remaining) {
    assertEquals(200, response.statusCode());
    assertEquals("hello", response.body().trim());
    assertEquals("\"hello-per-ip\";q=5;w=60", header(response, "RateLimit-Policy"));
    Matcher m = RATE_LIMIT.matcher(header(response, "RateLimit"));
    assertTrue(m.matches(), header(response, "RateLimit"));
    assertEquals(remaining, Integer.parseInt(m.group(1)));
  }

  private static void assertRefused(HttpResponse<String> response) {
    assertEquals(429, response.statusCode());
    long retryAfter = Long.parseLong(header(response, "Retry-After"));
    // One token comes back every 12 s; the exact wait, rounded up, is never more than that.
    assertTrue(retryAfter >= 1 && retryAfter <= 12, "Retry-After " + retryAfter);
    assertEquals("\"hello-per-ip\";q=5;w=60", header(response, "RateLimit-Policy"));
    Matcher m = RATE_LIMIT.matcher(header(response, "RateLimit"));
    assertTrue(m.matches(), header(response, "RateLimit"));
    assertEquals(0, Integer.parseInt(m.group(1)));
    // the newest RateLimit draft: Retry-After no earlier than t; Tollgate makes them the same
    assertEquals(retryAfter, Long.parseLong(m.group(2)), "t of a refusal is its Retry-After");
    assertEquals("no-store", header(response, "Cache-Control"));
    assertEquals("hello-per-ip", header(response, "Tollgate-Rule"));
    assertTrue(header(response, "Content-Type").startsWith("application/problem+json"));
    String body = response.body();
    assertTrue(body.contains("\"status\":429"), body);
    assertTrue(body.contains("\"title\":\"Too Many Requests\""), body);
    assertTrue(body.contains(
        "\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\""), body);
    assertTrue(body.contains("\"violated-policies\":[\"hello-per-ip\"]"), body);
    assertTrue(body.contains("\"rule\":\"hello-per-ip\""), body);
    assertTrue(body.contains("\"retryAfter\":" + retryAfter), body);
  }

  private static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name)
        .orElseThrow(() -> new AssertionError("no " + name + " header in " + response.headers()));
  }

  static void assertAgentLogClean(ForkedApp app) {
    for (String line : app.agentLog()) {
      assertTrue(!line.contains("ERROR") && !line.contains("could not instrument"),
          "unexpected agent log line: " + line + "\nwhole log:\n" + String.join("\n", app.output()));
    }
  }
}
