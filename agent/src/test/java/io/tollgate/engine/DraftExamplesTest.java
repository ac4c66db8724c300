package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.Durations;
import io.tollgate.config.RulesFileParser;
import io.tollgate.http.RefusalResponse;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.testing.StructuredFields;
import io.tollgate.testing.StructuredFields.Item;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The examples of draft-ietf-httpapi-ratelimit-headers (the working group's newest text), played
 * on Tollgate: a rules file that is the example's policy, the traffic the example describes, and
 * the fields the example shows, compared as RFC 9651 values (so {@code a,b} and Tollgate's {@code
 * a, b} are the same list). The draft's own field values are parsed too, which checks the test's
 * parser against them.
 */
class DraftExamplesTest {

  /** Midnight UTC: minutes, hours and days start with the script. */
  private static final long START = Instant.parse("2026-03-28T00:00:00Z").toEpochMilli();

  static Stream<Arguments> examples() {
    return Stream.of(
        example(
            "Throttling window specified via parameter: 99 units left for the next 50 seconds",
            rule("fixedwindow", "fixed-window", 100, "1m"),
            "wait 10s GET",
            "RateLimit-Policy", "\"fixedwindow\";q=100;w=60",
            "RateLimit", "\"fixedwindow\";r=99;t=50"),
        example(
            "Use for limiting concurrency: after 2 seconds the client consumed 40 quota units",
            rule("basic", "fixed-window", 100, "1m"),
            "wait 2s GET*40",
            "RateLimit-Policy", "\"basic\";q=100;w=60",
            "RateLimit", "\"basic\";r=60;t=58"),
        example(
            "Use in throttled responses: Retry-After and t reference the same moment",
            rule("default", "fixed-window", 100, "1m"),
            "GET*100 wait 55s GET",
            "RateLimit", "\"default\";r=0;t=5",
            "Retry-After", "5",
            "body", "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
                + "\"status\":429,\"violated-policies\":[\"default\"]}"),
        example(
            "Multiple policies: permin and perhr",
            rule("permin", "fixed-window", 50, "1m") + rule("perhr", "fixed-window", 1000, "1h"),
            "GET",
            "RateLimit-Policy", "\"permin\";q=50;w=60,\"perhr\";q=1000;w=3600"),
        example(
            "Multiple policies in response: 4900 of the day's 5000 used in 14 hours, the daily"
                + " limit the closest",
            rule("dayLimit", "fixed-window", 5000, "1d") + rule("hourLimit", "fixed-window", 1000, "1h"),
            "GET*980 wait 1h GET*980 wait 1h GET*980 wait 1h GET*980 wait 1h GET*979 wait 10h"
                + " GET",
            "RateLimit", "\"dayLimit\";r=100;t=36000"));
  }

  static String rule(String name, String algorithm, long limit, String period) {
    return "  - name: " + name + "\n    key: ip\n    algorithm: " + algorithm + "\n    limit: "
        + limit + "\n    period: " + period + "\n";
  }

  static Arguments example(String title, String rules, String script, String... fields) {
    return Arguments.of(title, rules, script, Arrays.asList(fields));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void tollgateAnswersAsTheDraftsExample(
      String title, String rules, String script, List<String> fields) throws Exception {
    ManualClock clock = ManualClock.atEpochMillis(START);
    RuleSet ruleSet = new RuleSetFactory(clock)
        .build(RulesFileParser.parse("rules:\n" + rules, "rules.yaml"), null);
    List<String[]> headers = new ArrayList<>();
    String body = null;
    for (String step : script.split(" +")) {
      if (step.equals("wait")) {
        continue;
      }
      if (!step.startsWith("GET")) {
        clock.advanceNanos(Durations.parseNanos(step));
        continue;
      }
      int times = step.contains("*") ? Integer.parseInt(step.substring(4)) : 1;
      for (int i = 0; i < times; i++) {
        FakeExchange exchange = FakeExchange.get("/items/123");
        RuleVerdicts verdicts =
            new RequestDecider().decide(exchange, ruleSet, DecisionPoint.FIRST_ENTRY, null);
        headers.clear();
        body = null;
        QuotaHeaders.addTo(headers, verdicts, ruleSet.headers());
        if (verdicts.refused()) {
          RuleVerdicts.Entry by = verdicts.refusedBy();
          long retryAfter = RefusalResponse.retryAfterSeconds(by.verdict.retryAfterNanos);
          RefusalResponse.addHeaders(headers, by.rule.name(), retryAfter);
          body = new String(RefusalResponse.body(429, false, by.rule.name(), retryAfter),
              StandardCharsets.UTF_8);
        } else {
          verdicts.requestEnded(exchange::responseHeader);
        }
      }
    }
    for (int i = 0; i < fields.size(); i += 2) {
      String name = fields.get(i);
      String expected = fields.get(i + 1);
      if (name.equals("body")) {
        for (String member : expected.substring(1, expected.length() - 1).split(",(?=\")")) {
          assertTrue(body != null && body.contains(member), title + ": " + member + " in " + body);
        }
      } else if (name.equals("Retry-After")) {
        assertEquals(List.of(expected), values(headers, name), title);
      } else {
        assertEquals(show(StructuredFields.parseList(expected)),
            show(StructuredFields.parseList(values(headers, name))), title + ": " + name);
      }
    }
  }

  private static String show(List<Item> items) {
    return items.toString();
  }

  private static List<String> values(List<String[]> headers, String name) {
    List<String> values = new ArrayList<>();
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        values.add(header[1]);
      }
    }
    return values;
  }

  static Stream<Arguments> draftFields() {
    return Stream.of(
        Arguments.of("\"burst\";q=100;w=60,\"daily\";q=1000;w=86400", "[burst;{q=100, w=60}, daily;{q=1000, w=86400}]"),
        Arguments.of("\"default\";q=100;w=10", "[default;{q=100, w=10}]"),
        Arguments.of("\"permin\";q=50;w=60,\"perhr\";q=1000;w=3600", "[permin;{q=50, w=60}, perhr;{q=1000, w=3600}]"),
        Arguments.of("\"peruser\";q=100;w=60;pk=:cHsdsRa894==:", "[peruser;{q=100, w=60, pk=bytes}]"),
        Arguments.of("\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:",
            "[peruser;{q=65535, qu=content-bytes, w=10, pk=bytes}]"),
        Arguments.of("\"default\";r=50;t=30", "[default;{r=50, t=30}]"),
        Arguments.of("\"default\";r=999;pk=:dHJpYWwxMjEzMjM=:", "[default;{r=999, pk=bytes}]"),
        Arguments.of("\"default\";r=300000000;t=60;pk=:QXBwLTk5OQ==:", "[default;{r=300000000, t=60, pk=bytes}]"));
  }

  /** The draft's own field values, as its text gives them, read by the test's parser. */
  @ParameterizedTest
  @MethodSource("draftFields")
  void theDraftsOwnFieldsParse(String field, String expected) {
    assertEquals(expected, show(StructuredFields.parseList(field)).replaceAll("\\[B@[0-9a-f]+", "bytes"));
  }
}
