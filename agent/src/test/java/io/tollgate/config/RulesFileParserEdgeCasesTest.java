package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The helpers behind the messages, and files odd enough to trip a careless parser. */
class RulesFileParserEdgeCasesTest {

  @ParameterizedTest(name = "''{0}'' suggests ''{1}''")
  @CsvSource({
    "perod,        period",
    "peroid,       period",
    "algoritm,     algorithm",
    "alogrithm,    algorithm",
    "limt,         limit",
    "max_keys,     max-keys",
    "maxKeys,      max-keys",
    "onFailure,    on-failure",
    "QUOTA_HEADERS, quota-headers",
    "rule,         rules",
    "backends,     backend",
    "colour,       ''",
    "x,            ''",
    "description,  ''",
  })
  void suggestsOnlyNearMisses(String typo, String expected) {
    List<String> keys =
        expected.isEmpty()
            ? RuleParser.RULE_KEYS
            : RulesFileParser.TOP_LEVEL_KEYS.contains(expected)
                ? RulesFileParser.TOP_LEVEL_KEYS
                : RuleParser.RULE_KEYS;
    String hint = YamlNodes.suggest(typo, keys);
    assertEquals(expected.isEmpty() ? null : expected, hint);
  }

  @ParameterizedTest(name = "''{0}'' is a proxy network: {1}")
  @CsvSource({
    "10.0.0.0/8,          true",
    "192.168.1.1,         true",
    "0.0.0.0/0,           true",
    "10.0.0.0/32,         true",
    "10.0.0.0/33,         false",
    "10.0.0/8,            false",
    "256.0.0.1,           false",
    "10.0.0.1/,           false",
    "10.0.0.1/x,          false",
    "fd00::/8,            true",
    "::1,                 true",
    "::,                  true",
    "2001:db8::/32,       true",
    "2001:db8:0:0:0:0:0:1, true",
    "::ffff:192.0.2.1/128, true",
    "2001:db8::/129,      false",
    "2001:db8:::1,        false",
    "1::2::3,             false",
    "2001:db8:0:0:0:0:0:0:1, false",
    "12345::,             false",
    "gggg::,              false",
    "localhost,           false",
    "proxy.internal/24,   false",
    // what the agent's own CIDR parser refuses, validate refuses too
    "010.0.0.0/8,         false",
    "10.0.0.01,           false",
    "::ffff:10.0.0.0/64,  false",
    "fe80::1%eth0,        false",
  })
  void proxyNetworks(String cidr, boolean valid) {
    assertEquals(valid, ClientIpSectionParser.isCidr(cidr));
  }

  @ParameterizedTest(name = "''{0}'' is a header token: {1}")
  @CsvSource({
    "X-Api-Key,  true",
    "x_api.key~, true",
    "'',         false",
    "'X Api',    false",
    "X:Api,      false",
    "X/Api,      false",
    "Ünicode,    false",
  })
  void headerNamesAreTokens(String name, boolean valid) {
    assertEquals(valid, YamlNodes.isToken(name));
  }

  /** Whatever the input, parse returns a config or throws a ConfigException: never anything else. */
  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "rules: [[[",
        "hello",
        "42",
        "[]",
        "a: 1\n---\nb: 2\n",
        "&a [*a]",
        "rules: &r [*r]\n",
        "a: *undefined\n",
        "? [a, b]\n: c\n",
        "!!binary foo: bar\n",
        "rules:\n  - null\n  - ~\n",
        "rules:\n  - name: ''\n    limit: 1\n    period: 1s\n",
        "rules:\n  - name: a\n    match: {path: [[/x]], methods: [[GET]], route: [x]}\n    limit: 1\n    period: 1s\n",
        "rules:\n  - name: a\n    <<: 5\n    limit: 1\n    period: 1s\n",
        "rules:\n  - name: a\n    <<: [5, {limit: 2}]\n    period: 1s\n",
        "rules:\n  - name: a\n    key: {ip: 1}\n    cost: {[x]: 1}\n    limit: 1\n    period: 1s\n",
        "rules:\n  - name: a\n    key: []\n    cost: {}\n    limit: 1\n    period: 1s\n",
        "rules:\n  - {name: a, limit: 1, period: 1s, match: {path: []}, burst: ~, cost: ~}\n",
        "backend: [redis]\n",
        "redis: 5\nbackend: redis\n",
        "redis:\nbackend: redis\n",
        "backend: redis\nredis: {uri: '${}', cluster: [5, [x], '${A', '${B-C}']}\n",
        "client-ip: [1]\n",
        "client-ip: {trusted-proxies: {a: 1}, ipv6-prefix: 0}\n",
        "client-ip: {trusted-proxies: [[1]], ipv6-prefix: x}\n",
        "\uFEFFrules: []\n",
        "rules:\n- name: a\n  limit: 1\n  period: 9999999999999d\n",
        "a: &a [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
            + "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n",
      })
  void neverThrowsAnythingButConfigException(String yaml) {
    try {
      RulesFileParser.parse(yaml, "odd.yaml", name -> null);
    } catch (ConfigException e) {
      assertFalse(e.problems().isEmpty());
      for (ConfigProblem p : e.problems()) {
        assertTrue(p.toString().startsWith("odd.yaml: "), p::toString);
        assertFalse(p.message().isEmpty());
      }
    } catch (RuntimeException | StackOverflowError e) {
      fail("parse threw " + e + " for:\n" + yaml, e);
    }
  }

  @Test
  void aRuleCanTakeEvenItsNameFromAMergeKeyButNamesMustStillBeUnique() {
    String yaml =
        String.join(
            "\n",
            "rules:",
            "  - &base {name: a, limit: 1, period: 1s}",
            "  - <<: *base",
            "    limit: 2",
            "");
    try {
      RulesFileParser.parse(yaml, "t");
      fail("a duplicate name taken from a merge key must be refused");
    } catch (ConfigException e) {
      assertEquals(1, e.problems().size(), e.getMessage());
      assertTrue(e.getMessage().contains("duplicate rule name 'a'"), e.getMessage());
    }
  }

  @Test
  void validateListsTheProblemsOfAFile() throws Exception {
    java.nio.file.Path file = java.nio.file.Files.createTempFile("rules", ".yaml");
    try {
      java.nio.file.Files.write(file, "mode: loud\nheaders: quiet\n".getBytes("UTF-8"));
      List<ConfigProblem> problems = RulesFileParser.validate(file, name -> null);
      assertEquals(Arrays.asList(1, 2), Arrays.asList(problems.get(0).line(), problems.get(1).line()));
      java.nio.file.Files.write(file, "mode: shadow\n".getBytes("UTF-8"));
      assertTrue(RulesFileParser.validate(file, name -> null).isEmpty());
    } finally {
      java.nio.file.Files.delete(file);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // what                         bytes after 'mode: shadow  # '      valid UTF-8
    "ASCII only,                    41,                                  true",
    "an accented letter,            c3 a9,                               true",
    "U+FFFD itself encoded,         ef bf bd,                            true",
    "U+FFFD and an invalid byte,    ef bf bd ff,                         false",
    "a byte never in UTF-8,         ff,                                  false",
    "a sequence cut short,          e2 82,                               false",
    "an overlong slash,             c0 af,                               false",
    "an encoded surrogate,          ed a0 80,                            false",
  })
  void aFileThatIsNotUtf8IsRefusedWithOneProblem(String what, String hex, boolean valid)
      throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.write("mode: shadow  # ".getBytes("UTF-8"));
    for (String b : hex.trim().split(" +")) {
      bytes.write(Integer.parseInt(b, 16));
    }
    bytes.write('\n');
    java.nio.file.Path file = java.nio.file.Files.createTempFile("rules", ".yaml");
    try {
      java.nio.file.Files.write(file, bytes.toByteArray());
      List<ConfigProblem> problems = RulesFileParser.validate(file, name -> null);
      if (valid) {
        assertTrue(problems.isEmpty(), what + ": " + problems);
      } else {
        assertEquals(1, problems.size(), what + ": " + problems);
        assertEquals("the rules file is not valid UTF-8 text", problems.get(0).message());
      }
    } finally {
      java.nio.file.Files.delete(file);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "quoted number   | limit: \"5\"       | 5",
        "underscores     | limit: 10_000      | 10000",
        "plus sign       | limit: +7          | 7",
      })
  void integersMayBeWrittenInTheseWays(String what, String line, long limit) throws ConfigException {
    RulesConfig c = RulesFileParser.parse("rules:\n  - name: r\n    " + line + "\n    period: 1s\n", "t");
    assertEquals(limit, c.rules().get(0).limit());
  }

  @ParameterizedTest(name = "quota-headers: {0}")
  @CsvSource({"true, true", "false, false", "True, true", "FALSE, false"})
  void booleans(String text, boolean value) throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            "rules:\n  - name: r\n    limit: 1\n    period: 1s\n    quota-headers: " + text + "\n", "t");
    assertEquals(value, c.rules().get(0).quotaHeaders());
  }
}
