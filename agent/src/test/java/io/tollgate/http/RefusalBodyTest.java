package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.QuotaPolicy;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Templates filled in and escaped for their content type, and which Accept headers get HTML. */
class RefusalBodyTest {

  static Stream<Arguments> renderings() {
    List<String> all = Arrays.asList("", "rule", " ", "retryAfter", " ", "limit", "/", "period", "");
    // rule names in the file are [A-Za-z0-9._-]; the odd one proves the escaping
    String odd = "a<b>&\"'";
    List<String> quoted = Arrays.asList("{\"r\":\"", "rule", "\"}");
    return Stream.of(
        Arguments.of(all, "text/plain", "api", "api 7 100/1m"),
        Arguments.of(Arrays.asList("<p>", "rule", "</p>"), "text/html; charset=utf-8", odd, "<p>a&lt;b&gt;&amp;&quot;&#39;</p>"),
        Arguments.of(Arrays.asList("<r>", "rule", "</r>"), "application/xml", odd, "<r>a&lt;b&gt;&amp;&quot;&#39;</r>"),
        Arguments.of(quoted, "application/json", odd, "{\"r\":\"a<b>&\\\"'\"}"),
        Arguments.of(quoted, "application/problem+json", odd, "{\"r\":\"a<b>&\\\"'\"}"),
        Arguments.of(Arrays.asList("", "rule", ""), "text/plain", odd, odd));
  }

  @ParameterizedTest
  @MethodSource("renderings")
  void fillsInAndEscapes(List<String> parts, String contentType, String rule, String expected) {
    byte[] body = new RefusalBody(null, parts, contentType).render(rule, 7, new QuotaPolicy(100, 60));
    assertEquals(expected, new String(body, StandardCharsets.UTF_8));
  }

  static Stream<Arguments> periods() {
    return Stream.of(
        Arguments.of(1, "1s"), Arguments.of(90, "90s"), Arguments.of(60, "1m"),
        Arguments.of(900, "15m"), Arguments.of(3600, "1h"), Arguments.of(86_400, "1d"),
        Arguments.of(172_800, "2d"));
  }

  @ParameterizedTest
  @MethodSource("periods")
  void periodsAreWrittenAsInTheRulesFile(long seconds, String expected) {
    assertEquals(expected, RefusalBody.period(seconds));
  }

  static Stream<Arguments> accepts() {
    return Stream.of(
        Arguments.of("Firefox", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true),
        Arguments.of("Chrome", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", true),
        Arguments.of("upper case", "TEXT/HTML", true),
        Arguments.of("curl", "*/*", false),
        Arguments.of("no Accept", null, false),
        Arguments.of("an API client", "application/json", false),
        Arguments.of("problem+json", "application/problem+json", false),
        Arguments.of("HTML and JSON", "text/html, application/json", false),
        Arguments.of("HTML and a +json type", "text/html, application/vnd.api+json;q=0.5", false),
        Arguments.of("HTML refused by q=0", "text/html;q=0, */*", false),
        Arguments.of("HTML with q=0.5", "text/html;q=0.5", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepts")
  void htmlGoesToBrowsersOnly(String who, String accept, boolean html) {
    List<String> lines = accept == null ? List.of() : List.of(accept);
    assertEquals(html, RefusalResponse.prefersHtml(lines), who + ": " + accept);
    // asked again: the remembered answer (PrefersHtmlCache) is the same
    assertEquals(html, RefusalResponse.prefersHtml(lines), who + " again: " + accept);
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void theStatusIsTheConfiguredOneExceptInAnOutage(Integer configured, boolean outage, int expected) {
    assertEquals(expected, new RefusalBody(configured, null, null).status(outage));
  }

  static Stream<Arguments> statuses() {
    return Stream.of(
        Arguments.of(null, false, 429), Arguments.of(null, true, 503),
        Arguments.of(503, false, 503), Arguments.of(420, false, 420), Arguments.of(420, true, 503));
  }

  static Stream<Arguments> problemTypes() {
    String types = "https://iana.org/assignments/http-problem-types#";
    return Stream.of(
        Arguments.of("over the limit", null, false, types + "quota-exceeded"),
        Arguments.of("a rule that sheds load with 503", 503, false,
            types + "temporary-reduced-capacity"),
        Arguments.of("Redis unreachable, on-failure: deny", null, true,
            types + "temporary-reduced-capacity"),
        Arguments.of("an operator's own 4xx", 420, false, types + "quota-exceeded"));
  }

  /**
   * The default body is of the RateLimit draft's problem types, with its {@code
   * violated-policies} member beside Tollgate's own {@code rule} and {@code retryAfter}.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("problemTypes")
  void theBodyIsTheDraftsProblemTypeForItsStatus(
      String why, Integer configured, boolean outage, String type) {
    int status = new RefusalBody(configured, null, null).status(outage);
    String body = new String(RefusalResponse.body(status, outage, "api/1h", 12), StandardCharsets.UTF_8);
    assertEquals(
        "{\"type\":\"" + type + "\",\"title\":\"" + RefusalResponse.title(status) + "\",\"status\":"
            + status + ",\"detail\":\"" + RefusalResponse.detail(outage, "api/1h", 12) + "\","
            + "\"violated-policies\":[\"api/1h\"],\"rule\":\"api/1h\",\"retryAfter\":12}\n",
        body);
  }
}
