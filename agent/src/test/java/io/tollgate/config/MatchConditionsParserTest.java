package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What {@code match.hosts}, {@code match.headers} and {@code skip} turn into. */
class MatchConditionsParserTest {

  private static RuleConfig parse(String... lines) throws ConfigException {
    StringBuilder yaml = new StringBuilder("rules:\n  - name: r1\n    limit: 5\n    period: 1m\n");
    for (String l : lines) {
      yaml.append("    ").append(l).append('\n');
    }
    return RulesFileParser.parse(yaml.toString(), "rules.yaml").rules().get(0);
  }

  @ParameterizedTest(name = "hosts: {0} -> {1}")
  @CsvSource(delimiter = '|', value = {
    "api.example.com                       | api.example.com",
    "API.Example.COM                       | api.example.com", // compared in any case
    "example.com.                          | example.com", //     the trailing dot names the same host
    "'[api.example.com, \"*.example.com\"]' | api.example.com *.example.com",
  })
  void hostsAreLowerCaseWithoutATrailingDot(String written, String parsed) throws Exception {
    RuleConfig r = parse("match:", "  hosts: " + written);
    assertEquals(Arrays.asList(parsed.split(" ")), r.hosts());
  }

  @ParameterizedTest(name = "{0}: {1} -> {2}: {3}")
  @CsvSource({
    "X-Api-Version, \"2*\",  x-api-version, 2*",
    "User-Agent,    \"ELB-HealthChecker/*\", user-agent, ELB-HealthChecker/*", // the glob keeps its case
    "X-Internal,    Present, x-internal,    present", //  keywords in any case
    "X-Api-Key,     ABSENT,  x-api-key,     absent",
  })
  void headerNamesAreLowerCaseAndValuesAsWritten(
      String name, String written, String parsedName, String parsedValue) throws Exception {
    RuleConfig r = parse("match:", "  headers: { " + name + ": " + written + " }");
    assertEquals(Collections.singletonMap(parsedName, parsedValue), r.headers());
  }

  @Test
  void aSkipHasItsOwnConditionsAndTheMatchNone() throws Exception {
    RuleConfig r =
        parse(
            "match: { path: /api/** }",
            "skip:",
            "  path: /api/health",
            "  methods: [get]",
            "  hosts: LB.internal",
            "  headers: { User-Agent: \"ELB-HealthChecker/*\", X-Probe: present }");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("user-agent", "ELB-HealthChecker/*");
    headers.put("x-probe", "present");
    RequestConditions skip = r.skip();
    assertEquals(List.of("/api/health"), skip.paths());
    assertEquals(Collections.singleton("GET"), skip.methods());
    assertEquals(List.of("lb.internal"), skip.hosts());
    assertEquals(headers, skip.headers());
    assertEquals(List.of(), r.hosts());
    assertEquals(Map.of(), r.headers());
  }

  @Test
  void aRuleWithoutThemHasNone() throws Exception {
    RuleConfig r = parse("match: { path: /hello }");
    assertEquals(List.of(), r.hosts());
    assertEquals(Map.of(), r.headers());
    assertNull(r.skip());
  }
}
