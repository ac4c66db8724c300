package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a valid rules file turns into. */
class RulesFileParserTest {
  static final Function<String, String> ENV = name -> name.equals("REDIS_HOST") ? "10.1.2.3" : null;

  static String yaml(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  static Path resource(String name) throws URISyntaxException {
    return Paths.get(RulesFileParserTest.class.getResource("/config/" + name).toURI());
  }

  @ParameterizedTest(name = "''{0}'' has zero rules and every default")
  @ValueSource(strings = {"", "# only a comment\n", "---\n", "rules: []\n", "backend: local\n"})
  void anEmptyFileIsValid(String text) throws ConfigException {
    RulesConfig c = RulesFileParser.parse(text, "empty.yaml", ENV);
    assertEquals("empty.yaml", c.source());
    assertEquals(Backend.LOCAL, c.backend());
    assertNull(c.redis());
    assertEquals(0, c.clientIp().trustedProxyHops());
    assertEquals(Collections.emptyList(), c.clientIp().trustedProxyCidrs());
    assertEquals(64, c.clientIp().ipv6Prefix());
    assertEquals(HeadersMode.DRAFT, c.headers());
    assertEquals(Mode.ENFORCE, c.mode());
    assertEquals(Collections.emptyList(), c.rules());
  }

  @Test
  void theMinimalExampleFileTakesEveryDefault() throws Exception {
    Path file = resource("minimal.yaml");
    RulesConfig c = RulesFileParser.parse(file);
    assertEquals(file.toString(), c.source());
    assertEquals(1, c.rules().size());
    RuleConfig r = c.rules().get(0);
    assertEquals("login-per-ip", r.name());
    assertEquals(3, r.line());
    assertEquals(Arrays.asList("/login"), r.paths());
    assertEquals(Collections.singleton("POST"), r.methods());
    assertNull(r.route());
    assertEquals(Arrays.asList("ip"), r.key());
    assertEquals(AlgorithmKind.TOKEN_BUCKET, r.algorithm());
    assertEquals(5, r.limit());
    assertEquals(60_000_000_000L, r.periodNanos());
    assertEquals(5, r.burst(), "burst defaults to limit");
    assertEquals(1, r.cost().defaultCost());
    assertTrue(r.cost().byPath().isEmpty());
    assertEquals(OnFailure.ALLOW, r.onFailure());
    assertNull(r.mode());
    assertNull(r.quotaHeaders());
    assertFalse(r.quotaHeadersOrDefault(), "login-style paths hide quota headers by default");
    assertEquals(100_000, r.maxKeys());
    assertEquals(2, c.lineOf("rules"));
    assertEquals(0, c.lineOf("backend"));
  }

  @Test
  void theFullExampleFileSetsEverySetting() throws Exception {
    RulesConfig c = RulesFileParser.parse(resource("full.yaml"), ENV);
    assertEquals(Backend.REDIS, c.backend());
    assertEquals("redis://10.1.2.3:6379/0", c.redis().uri());
    assertEquals(Collections.emptyList(), c.redis().cluster());
    assertEquals(20_000_000L, c.redis().timeoutNanos());
    assertEquals(0, c.clientIp().trustedProxyHops());
    assertEquals(Arrays.asList("10.0.0.0/8", "192.168.1.1", "fd00::/8"), c.clientIp().trustedProxyCidrs());
    assertEquals(56, c.clientIp().ipv6Prefix());
    assertEquals(HeadersMode.BOTH, c.headers());
    assertEquals(Mode.SHADOW, c.mode());
    assertEquals(2, c.lineOf("backend"));
    assertEquals(4, c.lineOf("redis.uri"));
    assertEquals(11, c.lineOf("rules"));
    assertEquals(3, c.rules().size());

    RuleConfig login = c.rule("login-per-ip");
    assertEquals(12, login.line());
    assertEquals(Collections.singleton("POST"), login.methods());
    assertEquals(Boolean.FALSE, login.quotaHeaders());
    assertEquals(Mode.SHADOW, login.effectiveMode(c.mode()));

    RuleConfig api = c.rule("api.per-key_v2");
    assertEquals(21, api.line());
    assertEquals(22, api.lineOf("match"));
    assertEquals(23, api.lineOf("match.path"));
    assertEquals(28, api.lineOf("limit"));
    assertEquals(21, api.lineOf("quota-headers"), "a key that is not written falls back to the rule's line");
    assertEquals(Arrays.asList("/api/**", "/v?/items/*"), api.paths());
    assertTrue(api.matchesPath("/api/orders/7"));
    assertTrue(api.matchesPath("/v2/items/9"));
    assertFalse(api.matchesPath("/hello"));
    assertEquals(new LinkedHashSet<>(Arrays.asList("GET", "HEAD")), api.methods());
    assertEquals("/api/orders/{id}", api.route());
    assertEquals(Arrays.asList("header:X-Api-Key", "param:username"), api.key());
    assertEquals(AlgorithmKind.SLIDING_WINDOW, api.algorithm());
    assertEquals(100, api.limit());
    assertEquals(10_000_000_000L, api.periodNanos());
    assertEquals(100, api.burst(), "a window allows at most its limit: burst is the limit");
    assertEquals(2, api.cost().defaultCost());
    Map<String, Long> byPath = new LinkedHashMap<>();
    byPath.put("/api/search", 5L);
    byPath.put("/api/export", 50L);
    assertEquals(byPath, api.cost().byPath());
    assertEquals(Arrays.asList("/api/search", "/api/export"), Arrays.asList(api.cost().byPath().keySet().toArray()));
    assertEquals(OnFailure.LOCAL, api.onFailure());
    assertEquals(Mode.ENFORCE, api.effectiveMode(c.mode()));
    assertNull(api.quotaHeaders());
    assertTrue(api.quotaHeadersOrDefault());
    assertEquals(5000, api.maxKeys());

    RuleConfig everyone = c.rule("everyone");
    assertTrue(everyone.paths().isEmpty());
    assertTrue(everyone.matchesPath("/anything"));
    assertTrue(everyone.methods().isEmpty());
    assertEquals(Arrays.asList("global"), everyone.key());
    assertEquals(AlgorithmKind.GCRA, everyone.algorithm());
    assertEquals(1000, everyone.limit());
    assertEquals(3_600_000_000_000L, everyone.periodNanos());
    assertEquals(2000, everyone.burst());
    assertEquals(3, everyone.cost().defaultCost());
    assertEquals(OnFailure.DENY, everyone.onFailure());
  }

  @Test
  void theModelIsImmutable() throws Exception {
    RulesConfig c = RulesFileParser.parse(resource("full.yaml"), ENV);
    RuleConfig api = c.rule("api.per-key_v2");
    assertThrows(UnsupportedOperationException.class, () -> c.rules().clear());
    assertThrows(UnsupportedOperationException.class, () -> api.paths().clear());
    assertThrows(UnsupportedOperationException.class, () -> api.methods().clear());
    assertThrows(UnsupportedOperationException.class, () -> api.key().clear());
    assertThrows(UnsupportedOperationException.class, () -> api.cost().byPath().clear());
    assertThrows(UnsupportedOperationException.class, () -> c.clientIp().trustedProxyCidrs().clear());
    assertThrows(UnsupportedOperationException.class, () -> c.redis().cluster().clear());
  }

  @ParameterizedTest(name = "cost {0}: {1} costs {2}")
  @CsvSource({
    "/api/search,       5",
    "/api/export,       50",
    "/api/export/all,   7",
    "/api/orders/1,     2",
    "/hello,            2",
  })
  void costIsTheFirstMatchingGlobElseTheDefault(String path, long cost) throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml(
                "rules:",
                "  - name: r",
                "    limit: 100",
                "    period: 1s",
                "    cost:",
                "      default: 2",
                "      /api/search: 5",
                "      /api/export: 50",
                "      /api/export/**: 7",
                "      /api/**/all: 99"),
            "t");
    assertEquals(cost, c.rules().get(0).cost().costFor(path));
  }

  @ParameterizedTest(name = "key: {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ip                          | ip",
        "global                      | global",
        "principal                   | principal",
        "route                       | route",
        "IP                          | ip",
        "header:X-Api-Key            | header:X-Api-Key",
        "param:username              | param:username",
        "query:username              | query:username",
        "form:username               | form:username",
        "Form:username               | form:username",
        "cookie:SESSION              | cookie:SESSION",
        "[ip, form:username]         | ip,form:username",
        "[ip, param:username]        | ip,param:username",
        "[principal, route]          | principal,route",
      })
  void keyPartsAreOneOrAList(String key, String expected) throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml("rules:", "  - name: r", "    key: " + key, "    limit: 1", "    period: 1s"), "t");
    assertEquals(Arrays.asList(expected.split(",")), c.rules().get(0).key());
  }

  @ParameterizedTest(name = "algorithm: {0}")
  @CsvSource({
    "token-bucket,   TOKEN_BUCKET",
    "gcra,           GCRA",
    "fixed-window,   FIXED_WINDOW",
    "sliding-window, SLIDING_WINDOW",
    "sliding-log,    SLIDING_LOG",
    "concurrency,    CONCURRENCY",
  })
  void everyAlgorithmIsAccepted(String name, AlgorithmKind kind) throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml("rules:", "  - name: r", "    algorithm: " + name, "    limit: 1", "    period: 1s"), "t");
    assertEquals(kind, c.rules().get(0).algorithm());
  }

  @ParameterizedTest(name = "top level {0}: {1}")
  @CsvSource({
    "headers: draft,   DRAFT,  ENFORCE",
    "headers: legacy,  LEGACY, ENFORCE",
    "headers: none,    NONE,   ENFORCE",
    "mode: shadow,     DRAFT,  SHADOW",
    "mode: enforce,    DRAFT,  ENFORCE",
  })
  void headersAndMode(String line, HeadersMode headers, Mode mode) throws ConfigException {
    RulesConfig c = RulesFileParser.parse(yaml(line), "t");
    assertEquals(headers, c.headers());
    assertEquals(mode, c.mode());
  }

  @Test
  void trustedProxiesAsAHopCount() throws ConfigException {
    RulesConfig c = RulesFileParser.parse(yaml("client-ip:", "  trusted-proxies: 2"), "t");
    assertEquals(2, c.clientIp().trustedProxyHops());
    assertTrue(c.clientIp().trustedProxyCidrs().isEmpty());
    assertEquals(64, c.clientIp().ipv6Prefix());
  }

  @Test
  void redisClusterWithEnvironmentVariables() throws ConfigException {
    Map<String, String> env = new HashMap<>();
    env.put("SEED_A", "redis://10.0.0.1:6379");
    RulesConfig c =
        RulesFileParser.parse(
            yaml(
                "backend: redis",
                "redis:",
                "  cluster:",
                "    - ${SEED_A}",
                "    - redis://${SEED_B_HOST:-10.0.0.2}:6379"),
            "t",
            env::get);
    assertNull(c.redis().uri());
    assertEquals(Arrays.asList("redis://10.0.0.1:6379", "redis://10.0.0.2:6379"), c.redis().cluster());
    assertEquals(50_000_000L, c.redis().timeoutNanos(), "timeout defaults to 50ms");
  }

  @Test
  void theDocumentedSampleWithAnEmptyClusterBesideTheUriIsValid() throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml("backend: redis", "redis:", "  uri: rediss://:secret@cache:6380", "  cluster: []", "  timeout: 50ms"),
            "t");
    assertEquals("rediss://:secret@cache:6380", c.redis().uri());
    assertFalse(c.redis().toString().contains("secret"), "the password stays out of logs");
  }

  @Test
  void redisTlsTrustTheRefusalCacheAndLeases() throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml(
                "backend: redis",
                "redis:",
                "  uri: rediss://cache:6380",
                "  refusal-cache: true",
                "  lease-tokens: 20",
                "  tls:",
                "    ca-file: /etc/tollgate/redis-ca.pem",
                "    verify-peer: ca"),
            "t");
    assertTrue(c.redis().refusalCache());
    assertEquals("/etc/tollgate/redis-ca.pem", c.redis().tlsCaFile());
    assertEquals(RedisSettings.VerifyPeer.CA, c.redis().verifyPeer());
    assertEquals(20, c.redis().leaseTokens());
    assertEquals(7, c.lineOf("redis.tls.ca-file"));

    RulesConfig defaults =
        RulesFileParser.parse(yaml("backend: redis", "redis:", "  uri: rediss://cache:6380"), "t");
    assertFalse(defaults.redis().refusalCache(), "off unless asked for");
    assertEquals(1, defaults.redis().leaseTokens(), "no leasing unless asked for");
    assertNull(defaults.redis().tlsCaFile(), "the JVM's trust store");
    assertEquals(RedisSettings.VerifyPeer.FULL, defaults.redis().verifyPeer());
  }

  /**
   * {@code redis.max-wait}, the hard bound on waiting for a late reply: 1 s unless given, then from
   * the timeout (no waiting past it) to the 30 s the agent holds a request in all.
   */
  @ParameterizedTest(name = "timeout {0}, max-wait {1}: waits up to {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "      |       | 1s",
        "      | 2s    | 2s",
        "      | 50ms  | 50ms",
        "200ms | 200ms | 200ms",
        "200ms | 5s    | 5s",
        "      | 30s   | 30s",
        "1s    | 30000ms | 30s",
      })
  void redisMaxWait(String timeout, String maxWait, String expected) throws ConfigException {
    List<String> lines = 
        new ArrayList<>(Arrays.asList("backend: redis", "redis:", "  uri: redis://cache:6379"));
    if (timeout != null) {
      lines.add("  timeout: " + timeout);
    }
    if (maxWait != null) {
      lines.add("  max-wait: " + maxWait);
    }
    RulesConfig c = RulesFileParser.parse(yaml(lines.toArray(new String[0])), "t");
    assertEquals(Durations.parseNanos(expected), c.redis().maxWaitNanos());
    if (maxWait != null) {
      assertEquals(lines.size(), c.lineOf("redis.max-wait"));
    }
  }

  @Test
  void rulesCanShareSettingsThroughYamlMergeKeys() throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml(
                "rules:",
                "  - &base",
                "    name: a",
                "    limit: 10",
                "    period: 1m",
                "  - <<: *base",
                "    name: b",
                "    limit: 20"),
            "t");
    assertEquals(10, c.rule("a").limit());
    assertEquals(20, c.rule("b").limit());
    assertEquals(60_000_000_000L, c.rule("b").periodNanos());
  }

  @Test
  void aSinglePathAndASingleMethodNeedNoList() throws ConfigException {
    RulesConfig c =
        RulesFileParser.parse(
            yaml("rules:", "  - name: r", "    match: { path: /x/*, methods: delete }", "    limit: 1", "    period: 1s"),
            "t");
    List<String> paths = c.rules().get(0).paths();
    assertEquals(Arrays.asList("/x/*"), paths);
    assertEquals(Collections.singleton("DELETE"), c.rules().get(0).methods());
  }

  @Test
  void rulesAreEqualWhenTheyLimitTheSameWayWhereverTheyAreWritten() throws ConfigException {
    RuleConfig a =
        RulesFileParser.parse(yaml("rules:", "  - name: r", "    limit: 5", "    period: 60s"), "t").rules().get(0);
    RuleConfig b =
        RulesFileParser.parse(
                yaml("# moved down", "", "rules:", "  - {name: r, period: 1m, limit: 5, burst: 5, key: ip}"), "t")
            .rules()
            .get(0);
    RuleConfig c =
        RulesFileParser.parse(yaml("rules:", "  - name: r", "    limit: 6", "    period: 60s"), "t").rules().get(0);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertFalse(a.equals(c));
  }

  /** Where an attacker would count the tries left, the quota headers are off unless asked for. */
  @ParameterizedTest(name = "{0}: quota headers shown {1}")
  @CsvSource({
    "/login, false",
    "/api/v1/sign-in, false",
    "/j_security_check, false",
    "/oauth/token, false",
    "/api/v1/auth, false",
    "/account/reset-password, false",
    "/verify-otp, false",
    "/api/orders/**, true",
    "/hello, true",
  })
  void loginStylePathsHideTheQuotaByDefault(String path, boolean shown) throws Exception {
    RulesConfig c = RulesFileParser.parse("rules:\n  - name: r\n    match:\n      path: " + path
        + "\n    key: ip\n    limit: 5\n    period: 1m\n", "rules.yaml", ENV);
    assertEquals(shown, c.rules().get(0).quotaHeadersOrDefault());
  }

  /** A window or a log allows at most its limit: a burst there would be ignored, so it is refused. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"fixed-window", "sliding-window", "sliding-log", "concurrency"})
  void burstIsRefusedWhereTheAlgorithmHasNone(String algorithm) {
    ConfigException e = assertThrows(ConfigException.class, () -> RulesFileParser.parse(
        "rules:\n  - name: r\n    key: ip\n    algorithm: " + algorithm
            + "\n    limit: 3\n    period: 1m\n    burst: 10\n", "rules.yaml", ENV));
    assertTrue(e.getMessage().contains("line 7") && e.getMessage().contains("burst applies to"),
        e.getMessage());
  }
}
