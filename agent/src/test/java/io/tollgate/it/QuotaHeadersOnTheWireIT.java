package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quota headers as the client receives them, on the servlet apps' containers: on Tomcat 10.1
 * and 9 the agent puts them into Tomcat's own headers as bytes, on Jetty through {@code
 * setHeader}; the client must not tell the difference. Each value exactly once, exact; responses
 * without a rule, with the application's own headers, or refused, in between, over one kept-alive
 * connection, three times over, so that Tomcat reuses the header slots the quota headers were in
 * for other headers (a {@code Content-Length}, the application's header) and back; and an
 * application that sets its own {@code RateLimit} replaces the agent's, as it does a header set
 * by {@code setHeader}. A refusal's own headers ({@code Retry-After}, {@code Cache-Control},
 * {@code Tollgate-Rule}, which on Tomcat go in as bytes too) exactly once on the 429, with its
 * type, and on no other response, though Tomcat reuses their slots for the next one.
 */
class QuotaHeadersOnTheWireIT {

  static final List<String> APPS = List.of("servlet-jakarta", "servlet-javax", "servlet-jetty9");

  private static final String[] RULES = {
    "rules:",
    "  - name: hello",
    "    match: { path: /hello }",
    "    key: ip",
    "    limit: 1000",
    "    period: 1h",
    "  - name: export",
    "    match: { path: /api/export }",
    "    key: ip",
    "    limit: 1000",
    "    period: 1h",
    "  - name: search-once",
    "    match: { path: /api/search }",
    "    key: ip",
    "    limit: 1",
    "    period: 1h",
  };

  /** What one response must carry: its status, body, and each header's every value, by pattern. */
  private static final class Expect {
    final String path;
    final int status;
    final String body;
    final String policy;
    final String rateLimit;
    final String otherHeader;
    final String otherValue;

    Expect(String path, int status, String body, String policy, String rateLimit,
        String otherHeader, String otherValue) {
      this.path = path;
      this.status = status;
      this.body = body;
      this.policy = policy;
      this.rateLimit = rateLimit;
      this.otherHeader = otherHeader;
      this.otherValue = otherValue;
    }
  }

  /**
   * One round of requests: path, status, body (null: any), {@code RateLimit-Policy} and {@code
   * RateLimit} (null: none sent; a pattern, in which R stands for the units left, counted down
   * by round), and one more header the application sets, with its value.
   */
  private static List<Expect> round(int round) {
    int helloLeft = 999 - 2 * round;
    return List.of(
        new Expect("/hello", 200, "hello\n", "\"hello\";q=1000;w=3600",
            "\"hello\";r=" + helloLeft + ";t=\\d+", null, null),
        new Expect("/health", 200, "ok\n", null, null, null, null),
        new Expect("/api/export?cost=7", 200, "export\n", "\"export\";q=1000;w=3600",
            "\"export\";r=" + (999 - 2 * round) + ";t=\\d+", "X-Tollgate-Cost", "7"),
        new Expect("/api/export?ratelimit=mine", 200, "export\n", "\"export\";q=1000;w=3600",
            "mine", null, null),
        new Expect("/api/search", round == 0 ? 200 : 429, null, "\"search-once\";q=1;w=3600",
            "\"search-once\";r=0;t=\\d+", null, null),
        new Expect("/hello", 200, "hello\n", "\"hello\";q=1000;w=3600",
            "\"hello\";r=" + (helloLeft - 1) + ";t=\\d+", null, null));
  }

  @TempDir Path dir;

  static Stream<String> apps() {
    return APPS.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("apps")
  void everyResponseCarriesItsOwnQuotaHeadersExactlyOnce(String appName) throws Exception {
    Path rules = RulesFiles.write(dir, "rules.yaml", RULES);
    try (ForkedApp app =
        ForkedApp.app(appName).on(Jdk.current()).withAgent("config=" + rules).start()) {
      List<String> wrong = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (Expect expect : round(round)) {
          HttpResponse<String> response = app.get(expect.path);
          String seen = "round " + round + ", " + expect.path + ": " + response.statusCode() + " "
              + response.headers().map() + " " + response.body();
          if (response.statusCode() != expect.status
              || (expect.body != null && !expect.body.equals(response.body()))
              || !matches(response.headers().allValues("RateLimit-Policy"), expect.policy)
              || !matches(response.headers().allValues("RateLimit"), expect.rateLimit)
              || (expect.otherHeader != null
                  && !List.of(expect.otherValue)
                      .equals(response.headers().allValues(expect.otherHeader)))
              || !refusalHeadersRight(response, expect.status == 429)) {
            wrong.add(seen);
          }
        }
      }
      assertEquals(List.of(), wrong, "responses that were not as expected");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  /**
   * A refusal's own headers and type, each once and exact, on a refusal ({@code search-once}'s,
   * the only rule that refuses here); on any other response none of them.
   */
  private static boolean refusalHeadersRight(HttpResponse<String> response, boolean refused) {
    HttpHeaders headers = response.headers();
    if (!refused) {
      return matches(headers.allValues("Retry-After"), null)
          && matches(headers.allValues("Cache-Control"), null)
          && matches(headers.allValues("Tollgate-Rule"), null);
    }
    return matches(headers.allValues("Retry-After"), "\\d+")
        && matches(headers.allValues("Cache-Control"), "no-store")
        && matches(headers.allValues("Tollgate-Rule"), "search-once")
        && matches(headers.allValues("Content-Type"), "application/problem\\+json");
  }

  /** One value matching {@code pattern}, or, for a null pattern, none. */
  private static boolean matches(List<String> values, String pattern) {
    if (pattern == null) {
      return values.isEmpty();
    }
    return values.size() == 1 && Pattern.matches(pattern, values.get(0));
  }
}
