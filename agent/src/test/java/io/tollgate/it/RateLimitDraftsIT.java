package io.tollgate.it;

import static io.tollgate.it.ItSupport.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.StructuredFields;
import io.tollgate.testing.StructuredFields.Item;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client of the newest RateLimit draft and one of draft-8, each against a servlet app with the
 * agent: {@code headers: both} (the newest draft's fields and {@code X-RateLimit-*}) and {@code
 * headers: draft-8}. A token bucket of 3 a minute, emptied by three requests and then refused:
 * the newest draft's {@code t} is the next token (20 s, the refusal's {@code Retry-After}), the
 * reset of draft-8 and of {@code X-RateLimit-Reset} the bucket full again (60 s). The ranges allow
 * for a machine that takes seconds between two requests; no assertion is on timing.
 */
class RateLimitDraftsIT {

  @TempDir Path dir;

  @Test
  void theNewestDraftsTIsTheNextTokenAndTheLegacyResetTheFullBucket() throws Exception {
    try (ForkedApp app = start("both")) {
      for (int i = 0; i < 2; i++) {
        assertEquals(200, send(app).statusCode());
      }
      HttpResponse<String> emptied = send(app);
      assertEquals(200, emptied.statusCode());
      Item limit = rateLimit(emptied);
      assertEquals(0, limit.integer("r"));
      assertBetween(18, 20, limit.integer("t"), "t: the next token");
      assertBetween(58, 60, Long.parseLong(header(emptied, "X-RateLimit-Reset")), "the full bucket");
      assertEquals("0", header(emptied, "X-RateLimit-Remaining"));

      HttpResponse<String> refused = send(app);
      assertEquals(429, refused.statusCode());
      long retryAfter = Long.parseLong(header(refused, "Retry-After"));
      assertBetween(18, 20, retryAfter, "Retry-After: the next token");
      assertEquals(retryAfter, rateLimit(refused).integer("t"), "t of a refusal is its Retry-After");
      assertBetween(58, 60, Long.parseLong(header(refused, "X-RateLimit-Reset")), "the full bucket");
      assertTrue(refused.body().contains(
          "\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\""),
          refused.body());
      assertTrue(refused.body().contains("\"violated-policies\":[\"per-client\"]"), refused.body());
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  @Test
  void draft8sTIsTheFullBucketAndNeverEarlierThanRetryAfter() throws Exception {
    try (ForkedApp app = start("draft-8")) {
      for (int i = 0; i < 2; i++) {
        assertEquals(200, send(app).statusCode());
      }
      HttpResponse<String> emptied = send(app);
      assertEquals(200, emptied.statusCode());
      assertBetween(58, 60, rateLimit(emptied).integer("t"), "t: the full bucket");
      assertTrue(emptied.headers().firstValue("X-RateLimit-Reset").isEmpty(), "no legacy fields");

      HttpResponse<String> refused = send(app);
      assertEquals(429, refused.statusCode());
      long retryAfter = Long.parseLong(header(refused, "Retry-After"));
      assertBetween(18, 20, retryAfter, "Retry-After: the next token");
      assertBetween(58, 60, rateLimit(refused).integer("t"), "t: the full bucket");
      ServletAppsIT.assertAgentLogClean(app);
    }
  }

  private ForkedApp start(String mode) throws Exception {
    Path rules =
        RulesFiles.write(
            dir,
            mode + ".yaml",
            "headers: " + mode,
            "rules:",
            "  - name: per-client",
            "    match: { path: /hello }",
            "    key: header:X-Client",
            "    limit: 3",
            "    period: 1m");
    return ForkedApp.app("servlet-jakarta").on(Jdk.current()).withAgent("config=" + rules).start();
  }

  private static HttpResponse<String> send(ForkedApp app) throws Exception {
    return app.send("GET", "/hello", Map.of("X-Client", "partner-1"));
  }

  /** The RateLimit field as a client of either draft parses it, checked against the policy. */
  private static Item rateLimit(HttpResponse<String> response) {
    List<Item> policies = StructuredFields.parseList(response.headers().allValues("RateLimit-Policy"));
    assertEquals(1, policies.size(), policies.toString());
    assertEquals("per-client", policies.get(0).string());
    assertEquals(3, policies.get(0).integer("q"));
    assertEquals(60, policies.get(0).integer("w"));
    List<Item> limits = StructuredFields.parseList(response.headers().allValues("RateLimit"));
    assertEquals(1, limits.size(), limits.toString());
    assertEquals("per-client", limits.get(0).string());
    return limits.get(0);
  }

  private static void assertBetween(long low, long high, long actual, String what) {
    assertTrue(actual >= low && actual <= high, what + ": " + actual + " not in " + low + ".." + high);
  }
}
