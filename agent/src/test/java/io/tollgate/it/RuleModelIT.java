package io.tollgate.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule model end to end on servlet-jakarta, one rules file: several limits, plans, an
 * allowlist, a penalty box and GCRA pacing. Clients are told apart by {@code X-Client}; periods
 * are long, so that a slow machine cannot refill a budget during the test.
 */
class RuleModelIT {

  @TempDir Path dir;

  @Test
  void limitsPlansAllowlistPenaltyAndPacing() throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            "rules.yaml",
            "rules:",
            "  - name: multi",
            "    match: { path: /hello }",
            "    key: header:X-Client",
            "    limits: [{limit: 5, period: 1d}, {limit: 3, period: 1h}]",
            "    allow: { keys: [monitor] }",
            "  - name: plans",
            "    match: { path: /api/search }",
            "    key: header:X-Client",
            "    plans:",
            "      header: X-Plan",
            "      default: free",
            "      limits: { free: {limit: 1, period: 1h}, pro: {limit: 3, period: 1h} }",
            "  - name: boxed",
            "    match: { path: /api/export }",
            "    key: header:X-Client",
            "    limit: 1",
            "    period: 1h",
            "    penalty: { after: 2, within: 1h, box-for: 2h }",
            "  - name: paced",
            "    match: { path: /health }",
            "    algorithm: gcra",
            "    limit: 1",
            "    period: 2s",
            "    max-delay: 3s");
    try (ForkedApp app =
        ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + rules).start()) {
      // several limits: the hour's 3 run out first, and the response says which limit refused
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> ok = get(app, "/hello", "X-Client", "c1");
        assertEquals(200, ok.statusCode());
        assertEquals(
            "\"multi/1d\";q=5;w=86400, \"multi/1h\";q=3;w=3600",
            ok.headers().firstValue("RateLimit-Policy").orElse(""));
      }
      HttpResponse<String> refused = get(app, "/hello", "X-Client", "c1");
      assertEquals(429, refused.statusCode());
      assertEquals("multi/1h", refused.headers().firstValue("Tollgate-Rule").orElse(""));
      // an allowlisted key is never limited
      for (int i = 0; i < 8; i++) {
        assertEquals(200, get(app, "/hello", "X-Client", "monitor").statusCode());
      }

      // plans: pro gets 3, free (and an unknown plan) 1
      assertEquals(200, get(app, "/api/search", "X-Client", "p", "X-Plan", "pro").statusCode());
      assertEquals(200, get(app, "/api/search", "X-Client", "p", "X-Plan", "pro").statusCode());
      assertEquals(200, get(app, "/api/search", "X-Client", "p", "X-Plan", "pro").statusCode());
      assertEquals(429, get(app, "/api/search", "X-Client", "p", "X-Plan", "pro").statusCode());
      assertEquals(200, get(app, "/api/search", "X-Client", "f").statusCode());
      assertEquals(429, get(app, "/api/search", "X-Client", "f", "X-Plan", "gold").statusCode());

      // penalty: the second refusal boxes the key for 2 hours, and Retry-After says so
      assertEquals(200, get(app, "/api/export", "X-Client", "b").statusCode());
      HttpResponse<String> first = get(app, "/api/export", "X-Client", "b");
      assertEquals(429, first.statusCode());
      assertTrue(retryAfter(first) <= 3600, "a plain refusal: " + retryAfter(first));
      HttpResponse<String> boxed = get(app, "/api/export", "X-Client", "b");
      assertEquals(429, boxed.statusCode());
      assertTrue(retryAfter(boxed) > 7000 && retryAfter(boxed) <= 7200, "boxed: " + retryAfter(boxed));

      // pacing: the second request comes before its slot and is held (not refused) until then;
      // how long it is held is specified on a manual clock in RuleModelTest, not timed here
      assertEquals(200, get(app, "/health").statusCode());
      assertEquals(200, get(app, "/health").statusCode(), "held, not refused");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private static HttpResponse<String> get(ForkedApp app, String path, String... headers)
      throws Exception {
    Map<String, String> h = new HashMap<>();
    for (int i = 0; i < headers.length; i += 2) {
      h.put(headers[i], headers[i + 1]);
    }
    return app.send("GET", path, h);
  }

  private static long retryAfter(HttpResponse<String> response) {
    return Long.parseLong(response.headers().firstValue("Retry-After").orElse("-1"));
  }
}
