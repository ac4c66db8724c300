package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.QuotaPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A refusal's body is built once per key and then sent as it is; any other key builds its own. */
class RefusalBodyCacheTest {

  private static final QuotaPolicy POLICY = new QuotaPolicy(100, 60);
  private static final int KIND = RefusalBodyCache.PROBLEM_JSON;

  @Test
  void theSameKeyFindsTheSameBytes() {
    RefusalBodyCache cache = new RefusalBodyCache();
    byte[] body = {1, 2, 3};
    assertNull(cache.find(KIND, false, "api", 7, POLICY));
    assertSame(body, cache.keep(KIND, false, "api", 7, POLICY, body));
    // a rule name read again from the rules file is another String with the same characters
    assertSame(body, cache.find(KIND, false, new String("api"), 7, POLICY));
  }

  static Stream<Arguments> otherKeys() {
    return Stream.of(
        Arguments.of("another kind", RefusalBodyCache.HTML, false, "api", 7L, POLICY),
        Arguments.of("an outage", KIND, true, "api", 7L, POLICY),
        Arguments.of("another rule", KIND, false, "api2", 7L, POLICY),
        Arguments.of("another Retry-After", KIND, false, "api", 8L, POLICY),
        Arguments.of("another budget's policy", KIND, false, "api", 7L, new QuotaPolicy(100, 60)),
        Arguments.of("no policy", KIND, false, "api", 7L, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("otherKeys")
  void anyOtherKeyMisses(
      String what, int kind, boolean outage, String rule, long retryAfter, QuotaPolicy policy) {
    RefusalBodyCache cache = new RefusalBodyCache();
    cache.keep(KIND, false, "api", 7, POLICY, new byte[] {1});
    assertNull(cache.find(kind, outage, rule, retryAfter, policy));
  }

  @Test
  void aLargeBodyIsNotKept() {
    RefusalBodyCache cache = new RefusalBodyCache();
    byte[] large = new byte[RefusalBodyCache.MAX_CACHED_BYTES + 1];
    assertSame(large, cache.keep(KIND, false, "api", 7, POLICY, large));
    assertNull(cache.find(KIND, false, "api", 7, POLICY));
  }

  @Test
  void manyKeysStayWithinTheSlots() {
    RefusalBodyCache cache = new RefusalBodyCache();
    for (long retryAfter = 1; retryAfter <= 10_000; retryAfter++) {
      cache.keep(KIND, false, "api", retryAfter, null, new byte[] {1});
    }
    // bounded: the last one is there, most of the first ones were replaced
    long kept = 0;
    for (long retryAfter = 1; retryAfter <= 10_000; retryAfter++) {
      kept += cache.find(KIND, false, "api", retryAfter, null) == null ? 0 : 1;
    }
    assertTrue(kept <= RefusalBodyCache.SLOTS, "kept " + kept);
  }

  static Stream<Arguments> refusals() {
    String firefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    RefusalBody template =
        new RefusalBody(null, Arrays.asList("", "rule", " ", "retryAfter", " ", "limit"), "text/plain");
    return Stream.of(
        Arguments.of("problem+json", RefusalBody.DEFAULT, null, false, 7L),
        Arguments.of("problem+json, another second", RefusalBody.DEFAULT, "*/*", false, 6L),
        Arguments.of("problem+json in an outage", RefusalBody.DEFAULT, null, true, 7L),
        Arguments.of("the HTML page", RefusalBody.DEFAULT, firefox, false, 7L),
        Arguments.of("the HTML page, one second", RefusalBody.DEFAULT, firefox, false, 1L),
        Arguments.of("the HTML page in an outage", RefusalBody.DEFAULT, firefox, true, 7L),
        Arguments.of("the operator's template", template, firefox, false, 7L),
        Arguments.of("the operator's template in an outage", template, null, true, 9L));
  }

  /**
   * The whole refusal is one value: the quota headers first, then the refusal's own three, and
   * the same key (quota headers included) gives the same value again, allocating nothing.
   */
  @Test
  void aRefusalIsOneValueKeptForItsKey() {
    RefusalBody refusal = new RefusalBody(null, null, null);
    String[] quota = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit", "\"api\";r=0;t=7"};
    RefusalMessage first = refusal.message(false, "api", 7, POLICY, false, quota, 4);
    assertEquals(429, first.status());
    assertEquals(RefusalResponse.CONTENT_TYPE, first.contentType());
    assertEquals(Arrays.asList("RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit",
        "\"api\";r=0;t=7", "Retry-After", "7", "Cache-Control", "no-store", "Tollgate-Rule", "api"),
        Arrays.asList(first.namesAndValues()));
    String[] sameHeadersAgain = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit",
        new String("\"api\";r=0;t=7")};
    assertSame(first, refusal.message(false, "api", 7, POLICY, false, sameHeadersAgain, 4));
  }

  static Stream<Arguments> otherRefusals() {
    String[] quota = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit", "\"api\";r=0;t=7"};
    String[] otherQuota = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit", "\"api\";r=0;t=8"};
    return Stream.of(
        Arguments.of("other quota headers", false, 7L, false, otherQuota, 4),
        Arguments.of("no quota headers", false, 7L, false, quota, 0),
        Arguments.of("another second", false, 8L, false, quota, 4),
        Arguments.of("an outage", true, 7L, false, quota, 4),
        Arguments.of("a browser", false, 7L, true, quota, 4));
  }

  /** Any part of the key that differs gives its own value, with its own headers and body. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("otherRefusals")
  void anotherKeyGivesItsOwnValue(
      String what, boolean outage, long retryAfter, boolean html, String[] quota, int length) {
    RefusalBody refusal = new RefusalBody(null, null, null);
    String[] usual = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit", "\"api\";r=0;t=7"};
    RefusalMessage kept = refusal.message(false, "api", 7, POLICY, false, usual, 4);
    RefusalMessage other = refusal.message(outage, "api", retryAfter, POLICY, html, quota, length);
    assertTrue(kept != other, what);
    assertEquals(length / 2 + 3, other.headerCount());
    for (int i = 0; i < length / 2; i++) {
      assertEquals(quota[2 * i + 1], other.headerValue(i));
    }
    assertEquals(Long.toString(retryAfter), other.header("Retry-After"));
    assertEquals(outage ? 503 : 429, other.status());
    assertArrayEquals(html
        ? RefusalResponse.htmlPage(other.status(), outage, "api", retryAfter)
        : RefusalResponse.body(other.status(), outage, "api", retryAfter), other.body());
  }

  /** The second refusal (from the cache) sends exactly what the first, built afresh, sent. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void aCachedRefusalIsByteIdenticalToABuiltOne(
      String what, RefusalBody refusal, String accept, boolean outage, long retryAfter) {
    Recorded first = write(refusal, accept, outage, retryAfter);
    Recorded second = write(refusal, accept, outage, retryAfter);
    assertEquals(first.status, second.status);
    assertEquals(first.contentType, second.contentType);
    assertArrayEquals(first.body, second.body);
    assertArrayEquals(expected(refusal, accept, outage, retryAfter), second.body);
  }

  private static byte[] expected(
      RefusalBody refusal, String accept, boolean outage, long retryAfter) {
    int status = refusal.status(outage);
    if (refusal.hasTemplate()) {
      return refusal.render("api", retryAfter, POLICY);
    }
    return accept != null && accept.contains("text/html")
        ? RefusalResponse.htmlPage(status, outage, "api", retryAfter)
        : RefusalResponse.body(status, outage, "api", retryAfter);
  }

  private static Recorded write(
      RefusalBody refusal, String accept, boolean outage, long retryAfter) {
    Recorded recorded = new Recorded(accept);
    boolean html = !refusal.hasTemplate()
        && RefusalResponse.prefersHtml(recorded.headerLines("Accept"));
    String[] quota = {"RateLimit-Policy", "\"api\";q=100;w=60", "RateLimit", "\"api\";r=0;t=" + retryAfter};
    recorded.writeRefusal(refusal.message(outage, "api", retryAfter, POLICY, html, quota, 4));
    return recorded;
  }

  /** Only what a refusal reads and writes: the Accept header in, status, type and body out. */
  private static final class Recorded implements HttpExchange {
    private final String accept;
    int status;
    String contentType;
    byte[] body;
    RefusalMessage message;

    Recorded(String accept) {
      this.accept = accept;
    }

    @Override
    public List<String> headerLines(String name) {
      return accept == null || !name.equals("Accept")
          ? Collections.emptyList()
          : Collections.singletonList(accept);
    }

    @Override
    public void writeRefusal(RefusalMessage refusal) {
      this.status = refusal.status();
      this.contentType = refusal.contentType();
      this.body = refusal.body();
      this.message = refusal;
    }

    @Override
    public String method() {
      return "GET";
    }

    @Override
    public String rawPath() {
      return "/";
    }

    @Override
    public String remoteAddress() {
      return "10.0.0.7";
    }

    @Override
    public String header(String name) {
      List<String> lines = headerLines(name);
      return lines.isEmpty() ? null : lines.get(0);
    }

    @Override
    public String principalName() {
      return null;
    }

    @Override
    public String parameter(String name) {
      return null;
    }

    @Override
    public String cookie(String name) {
      return null;
    }

    @Override
    public String route() {
      return null;
    }

    @Override
    public void setResponseHeader(String name, String value) {}

    @Override
    public String responseHeader(String name) {
      return null;
    }
  }
}
