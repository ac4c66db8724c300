package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.RulesFileParser;
import io.tollgate.keys.KeyPartBound;
import io.tollgate.limiters.ManualClock;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which key a request's user name gives, with {@code key-normalize} set, unset (its default) or
 * off: the variants of one account share one key on login-style rules, and every stored part stays
 * within {@link KeyPartBound#MAX_BYTES} bytes whatever the rule.
 */
class KeyNormalizationTest {

  /** The variants issue 27 sent, each of which got its own 5 attempts before. */
  private static final String[] ADMIN_VARIANTS = {
    "admin", "Admin", "ADMIN", " admin", "admin\t", "admin\u0000", "\uff41dmin", "admin\u200b",
  };

  @ParameterizedTest(name = "{0}: normalised {1}")
  @CsvSource(delimiter = '|', value = {
    // rule (key, then more settings)                                         | variants share a key
    "key: [ip, param:username], count-when: [401, 403]                        | true",  // login-bruteforce.yaml
    "key: [ip, param:username]                                                | true",  // a user-name parameter
    "key: param:j_username                                                    | true",
    "key: param:userEmail                                                     | true",
    "key: param:account                                                       | true",
    "key: param:q, count-when: [403]                                          | true",  // counts failures
    "key: param:q                                                             | false", // neither: off
    "key: [ip, param:username], key-normalize: false                          | false", // turned off
    "key: param:q, key-normalize: true                                        | true",  // turned on
    "key: header:X-User, count-when: [401]                                    | false", // secrets: as sent
  })
  void variantsOfOneAccountShareAKey(String settings, boolean shared) throws Exception {
    Rule rule = rule(settings);
    String paramName = paramOf(settings);
    Set<String> keys = new HashSet<>();
    for (String variant : ADMIN_VARIANTS) {
      FakeExchange exchange = new FakeExchange("POST", "/login").parameter(paramName, variant);
      if (paramName.equals("X-User")) {
        exchange.header("X-User", variant);
      }
      keys.add(rule.keyFor(exchange));
    }
    assertEquals(shared ? 1 : ADMIN_VARIANTS.length, keys.size(), keys.toString());
  }

  @Test
  void distinctAccountsKeepDistinctKeys() throws Exception {
    Rule rule = rule("key: [ip, param:username]");
    assertNotEquals(
        rule.keyFor(new FakeExchange("POST", "/login").parameter("username", "admin")),
        rule.keyFor(new FakeExchange("POST", "/login").parameter("username", "admin2")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "key: [ip, param:username]",
    "key: param:username",
    "key: [ip, param:username], key-normalize: false",
    "key: param:q, key-fallback: [ip, param:username]",
  })
  void aMegabyteUserNameIsStoredInFewBytes(String settings) throws Exception {
    Rule rule = rule(settings);
    String huge = "A".repeat(1 << 20);
    FakeExchange exchange = new FakeExchange("POST", "/login").parameter("username", huge);
    String key = rule.keyFor(exchange);
    // ip (at most 39 characters for IPv6) and the hashed name, with their length prefixes
    assertTrue(key.length() <= 2 * (KeyPartBound.MAX_BYTES + 4) + 16, key);
    String other = rule.keyFor(
        new FakeExchange("POST", "/login").parameter("username", huge + "b"));
    assertNotEquals(key, other);
  }

  @Test
  void allowlistedNamesAreNormalisedAsRequestsAre() throws Exception {
    Rule rule = rule("key: param:username, allow: { keys: [Monitor] }");
    FakeExchange exchange = new FakeExchange("POST", "/login").parameter("username", " MONITOR");
    assertTrue(rule.isAllowlisted(exchange, rule.keyFor(exchange)));
  }

  private static Rule rule(String settings) throws Exception {
    StringBuilder yaml = new StringBuilder("rules:\n  - name: login\n    match: { path: /login }\n");
    yaml.append("    limit: 5\n    period: 15m\n");
    for (String setting : splitTopLevel(settings)) {
      yaml.append("    ").append(setting.trim()).append('\n');
    }
    RuleSet rules =
        new RuleSetFactory(ManualClock.atEpochMillis(0))
            .build(RulesFileParser.parse(yaml.toString(), "rules.yaml"), null);
    return rules.find("login");
  }

  /** The param (or header) name in a key setting: the NAME of the first param:NAME. */
  private static String paramOf(String settings) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?:param|header):([A-Za-z_-]+)").matcher(settings);
    return m.find() ? m.group(1) : null;
  }

  /** Splits "a: [x, y], b: z" at the commas outside brackets and braces. */
  private static String[] splitTopLevel(String settings) {
    java.util.List<String> out = new java.util.ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < settings.length(); i++) {
      char c = settings.charAt(i);
      if (c == '[' || c == '{') {
        depth++;
      } else if (c == ']' || c == '}') {
        depth--;
      } else if (c == ',' && depth == 0) {
        out.add(settings.substring(start, i));
        start = i + 1;
      }
    }
    out.add(settings.substring(start));
    return out.toArray(new String[0]);
  }
}
