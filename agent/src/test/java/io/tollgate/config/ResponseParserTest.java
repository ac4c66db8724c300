package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code response:} at the top level and in a rule: what each file means (the rule's response
 * laid over the file's), and each broken one refused with one problem on the right line.
 */
class ResponseParserTest {

  static String yaml(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  /** A file with {@code top} at the top level and one rule r1 ending with {@code ruleLines}. */
  static String file(List<String> top, String... ruleLines) {
    StringBuilder sb = new StringBuilder();
    for (String t : top) {
      sb.append(t).append('\n');
    }
    sb.append(yaml("rules:", "  - name: r1", "    limit: 5", "    period: 1m"));
    for (String r : ruleLines) {
      sb.append(r).append('\n');
    }
    return sb.toString();
  }

  static List<String> top(String... lines) {
    return Arrays.asList(lines);
  }

  static Arguments means(String what, String yaml, Integer status, List<String> parts, String type) {
    return Arguments.of(what, yaml, status, parts, type);
  }

  static Stream<Arguments> meanings() {
    return Stream.of(
        means("no response anywhere", file(top()), null, null, null),
        means("the issue's example",
            file(top(), "    response: { status: 503, body: \"busy: {rule}, retry in {retryAfter}s\", content-type: text/plain }"),
            503, Arrays.asList("busy: ", "rule", ", retry in ", "retryAfter", "s"), "text/plain"),
        means("a status alone keeps the negotiated body",
            file(top(), "    response: { status: 503 }"), 503, null, null),
        means("a body alone is plain UTF-8 text",
            file(top(), "    response: { body: \"{limit} per {period}\" }"),
            null, Arrays.asList("", "limit", " per ", "period", ""), "text/plain; charset=utf-8"),
        means("doubled braces are literal ones, for JSON bodies",
            file(top(), "    response:", "      body: '{{\"error\":\"{rule}\"}}'", "      content-type: application/json"),
            null, Arrays.asList("{\"error\":\"", "rule", "\"}"), "application/json"),
        means("the top-level response applies to every rule",
            file(top("response: { status: 503, body: busy }")), 503, Arrays.asList("busy"), "text/plain; charset=utf-8"),
        means("a rule's status replaces the top level's and keeps its body",
            file(top("response: { status: 503, body: busy }"), "    response: { status: 429 }"),
            429, Arrays.asList("busy"), "text/plain; charset=utf-8"),
        means("a rule's body comes with its own content type, not the top level's",
            file(top("response: { body: '{{}}', content-type: application/json }"), "    response: { body: slow down }"),
            null, Arrays.asList("slow down"), "text/plain; charset=utf-8"),
        means("a content type with parameters",
            file(top(), "    response: { body: '<b>{rule}</b>', content-type: 'text/html; charset=utf-8' }"),
            null, Arrays.asList("<b>", "rule", "</b>"), "text/html; charset=utf-8"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("meanings")
  void layersTheRulesResponseOverTheFiles(
      String what, String yaml, Integer status, List<String> parts, String type) throws Exception {
    RulesConfig config = RulesFileParser.parse(yaml, "rules.yaml");
    ResponseConfig r = config.rules().get(0).response().over(config.response());
    assertEquals(status, r.status(), what);
    assertEquals(parts, r.bodyParts(), what);
    assertEquals(type, r.contentType(), what);
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> corpus() {
    return Stream.of(
        broken("a misspelt placeholder",
            file(top(), "    response:", "      body: \"busy: {rul}\""), 6,
            "rule 'r1'", "unknown placeholder '{rul}'", "did you mean '{rule}'?"),
        broken("a placeholder in the wrong case",
            file(top(), "    response: { body: \"retry in {retryafter}s\" }"), 5,
            "unknown placeholder '{retryafter}'", "did you mean '{retryAfter}'?"),
        broken("an unknown placeholder at the top level",
            file(top("response:", "  body: \"{user} is blocked\"")), 2,
            "unknown placeholder '{user}'", "placeholders: {rule}, {retryAfter}, {limit}, {period}"),
        broken("an unclosed brace",
            file(top(), "    response: { body: \"busy {rule\" }"), 5, "'{' that is not closed", "{{"),
        broken("a brace opened inside a placeholder",
            file(top(), "    response: { body: \"busy {ru{rule}\" }"), 5, "'{' that is not closed"),
        broken("a stray closing brace",
            file(top(), "    response: { body: \"busy }\" }"), 5, "'}' that closes no placeholder", "}}"),
        broken("a JSON body with single braces",
            file(top(), "    response: { body: '{\"error\": 1}', content-type: application/json }"), 5,
            "unknown placeholder", "{{ and }}"),
        broken("a status below 400",
            file(top(), "    response: { status: 302 }"), 5, "response.status", "from 400 to 599", "'302'"),
        broken("a status above 599",
            file(top("response: { status: 600 }")), 1, "response.status", "from 400 to 599"),
        broken("a status that is not a number",
            file(top(), "    response: { status: busy }"), 5, "response.status", "from 400 to 599"),
        broken("a content type without a body",
            file(top(), "    response: { status: 503, content-type: text/html }"), 5,
            "content-type", "no body"),
        broken("a content type that is not a media type",
            file(top(), "    response: { body: busy, content-type: plain }"), 5,
            "content-type must be a media type"),
        broken("a misspelt key in response",
            file(top(), "    response: { stauts: 503 }"), 5,
            "unknown key 'stauts'", "did you mean 'status'?"),
        broken("response that is not a mapping",
            file(top(), "    response: 503"), 5, "response must be a mapping"),
        broken("an empty response",
            file(top(), "    response: {}"), 5, "response is empty"),
        broken("an empty body",
            file(top(), "    response: { body: '' }"), 5, "response.body must be"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void isRefusedWithOneClearProblem(String what, String yaml, int line, String[] words) {
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml"), what);
    List<ConfigProblem> problems = e.problems();
    if (problems.size() != 1) {
      fail(what + ": expected exactly one problem, got:\n" + e.getMessage());
    }
    ConfigProblem p = problems.get(0);
    assertEquals(line, p.line(), () -> "line of: " + p);
    for (String word : words) {
      assertTrue(
          p.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          () -> "'" + word + "' missing from: " + p);
    }
  }
}
