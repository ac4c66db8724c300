package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code count-when} over HTTP, on a plain servlet app, Spring MVC and Jersey without a servlet
 * container, in this process's memory and on Redis: each login is charged up front and given its
 * charge back once its response turns out not to be a failure, so successful logins never use up
 * the limit while the failures are all counted. {@code POST /login} answers 401 when the parameter
 * {@code password} is {@code wrong}, else 200.
 */
@ExtendWith(RedisServerExtension.class)
class CountWhenIT {

  static final List<String> APPS = Arrays.asList("servlet-jakarta", "spring-boot3", "jaxrs-jakarta");

  @TempDir Path dir;

  static Stream<Arguments> appsAndBackends() {
    List<Arguments> all = new ArrayList<>();
    for (String app : APPS) {
      all.add(Arguments.of(app, "local"));
      all.add(Arguments.of(app, "redis"));
    }
    return all.stream();
  }

  static Stream<String> apps() {
    return APPS.stream();
  }

  @ParameterizedTest(name = "{0}, backend {1}")
  @MethodSource("appsAndBackends")
  void successfulLoginsAreGivenBackAndTheFourthFailureIsRefused(
      String appName, String backend, RedisServer redis) throws Exception {
    List<String> lines = new ArrayList<>();
    if (backend.equals("redis")) {
      lines.addAll(Arrays.asList("backend: redis", "redis:", "  uri: " + redis.uri(), "  timeout: 2s"));
    }
    String rule = "login-" + appName + "-" + Long.toString(System.nanoTime(), 36);
    lines.addAll(Arrays.asList(
        "rules:",
        "  - name: " + rule,
        "    match: { path: /login, methods: [POST] }",
        "    key: [ip, param:username]",
        "    count-when: [401, 403]",
        "    algorithm: sliding-log",
        "    limit: 3",
        "    period: 15m",
        "    quota-headers: false"));
    Path rules = RulesFiles.write(dir, "rules.yaml", lines.toArray(new String[0]));
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      // ten good logins: each charged, then given back
      for (int i = 0; i < 10; i++) {
        HttpResponse<String> ok = login(app, "alice", "secret");
        assertEquals(200, ok.statusCode(), "good login #" + (i + 1) + ": " + ok.body());
        assertTrue(ok.headers().firstValue("RateLimit").isEmpty(), "no quota headers");
      }
      // three failures are counted; the fourth attempt is refused, and so is the right password
      assertEquals(
          List.of(401, 401, 401, 429, 429),
          statuses(app, "alice", "wrong", "wrong", "wrong", "wrong", "secret"));
      // the key is the address and the user name: another user still has all three tries
      assertEquals(List.of(200, 401, 401, 401, 429), statuses(app, "bob", "secret", "wrong", "wrong", "wrong", "wrong"));
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("apps")
  void anUncaughtExceptionCountsAs500AndAsynchronousResponsesAndCostHeadersAreSettledAtTheEnd(
      String appName)
      throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: errors",
            "    match: { path: /error/boom }",
            "    key: ip",
            "    count-when: [5xx]",
            "    limit: 2",
            "    period: 1h",
            "  - name: async",
            "    match: { path: /async/hello }",
            "    key: ip",
            "    count-when: [5xx]",
            "    limit: 2",
            "    period: 1h",
            "  - name: exports",
            "    match: { path: /api/export }",
            "    key: ip",
            "    limit: 100",
            "    period: 1d",
            "    cost: 50",
            "    cost-header: X-Tollgate-Cost");
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      List<Integer> booms = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        booms.add(app.get("/error/boom").statusCode());
      }
      // the exception escapes the application: the 500 the server answers is counted
      assertEquals(List.of(500, 500, 429), booms);
      for (int i = 0; i < 5; i++) {
        HttpResponse<String> hello = app.get("/async/hello");
        // each 200, known when the asynchronous response completes, is given back
        assertEquals(200, hello.statusCode(), "async hello #" + (i + 1) + ": " + hello.body());
      }
      // the same end settles cost-header (on Jersey too, read from the response it wrote): each
      // 50 charged up front is given back when the application reports a cost of 0
      List<Integer> exports = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        exports.add(app.get("/api/export?cost=0").statusCode());
      }
      exports.add(app.get("/api/export").statusCode());
      exports.add(app.get("/api/export").statusCode());
      exports.add(app.get("/api/export").statusCode());
      assertEquals(List.of(200, 200, 200, 200, 200, 200, 429), exports);
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * {@code config-examples/login-bruteforce.yaml} as shipped: five failures per address and user
   * name (the address from {@code X-Forwarded-For}, one proxy trusted), then refusals, and the third
   * refusal boxes the key for an hour; good logins before never count; no quota headers.
   */
  @org.junit.jupiter.api.Test
  void theLoginBruteforceExampleAsShipped() throws Exception {
    Path example =
        java.nio.file.Paths.get(System.getProperty("tollgate.config.examples", "../config-examples"))
            .resolve("login-bruteforce.yaml").toAbsolutePath();
    try (ForkedApp app =
        ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + example).start()) {
      Map<String, String> client = Map.of("X-Forwarded-For", "203.0.113.5");
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        statuses.add(app.send("POST", "/login?username=carol&password=secret", client).statusCode());
      }
      for (int i = 0; i < 5; i++) {
        statuses.add(app.send("POST", "/login?username=carol&password=wrong", client).statusCode());
      }
      assertEquals(List.of(200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 401, 401, 401, 401, 401),
          statuses);
      List<Long> retryAfters = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> refused =
            app.send("POST", "/login?username=carol&password=secret", client);
        assertEquals(429, refused.statusCode(), refused.body());
        assertTrue(refused.headers().firstValue("RateLimit").isEmpty(), "no quota headers");
        retryAfters.add(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()));
      }
      // the first two wait for the oldest failure to leave the 15 minutes; the third fills the box
      assertTrue(retryAfters.get(0) <= 900 && retryAfters.get(1) <= 900, retryAfters.toString());
      assertTrue(retryAfters.get(2) > 900 && retryAfters.get(2) <= 3600, retryAfters.toString());
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static HttpResponse<String> login(ForkedApp app, String user, String password)
      throws Exception {
    return app.send("POST", "/login?username=" + user + "&password=" + password, Map.of());
  }

  private static List<Integer> statuses(ForkedApp app, String user, String... passwords)
      throws Exception {
    List<Integer> out = new ArrayList<>();
    for (String p : passwords) {
      out.add(login(app, user, p).statusCode());
    }
    return out;
  }
}
