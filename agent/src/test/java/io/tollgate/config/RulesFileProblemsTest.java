package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of broken rules files. Each one is refused with exactly one problem, on the line given,
 * whose message contains every one of the words given (ignoring case).
 */
class RulesFileProblemsTest {
  static final Function<String, String> ENV = name -> name.equals("REDIS_HOST") ? "cache" : null;

  static String yaml(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  /** A rule with every required key, to which a case adds or changes lines. */
  static String rule(String... extra) {
    List<String> lines = new ArrayList<>(Arrays.asList("rules:", "  - name: r1", "    limit: 5", "    period: 1m"));
    lines.addAll(Arrays.asList(extra));
    return yaml(lines.toArray(new String[0]));
  }

  static Arguments broken(String what, String yaml, int line, String... words) {
    return Arguments.of(what, yaml, line, words);
  }

  static Stream<Arguments> corpus() {
    return Stream.of(
        // --- YAML itself --------------------------------------------------------------------
        broken("a tab used for indentation",
            yaml("rules:", "  - name: r1", "\tlimit: 5"), 3, "invalid YAML", "tab", "spaces"),
        broken("a key indented too far",
            yaml("rules:", "  - name: r1", "    limit: 5", "      period: 1m"), 4, "invalid YAML", "indentation"),
        broken("a key indented too little inside a rule",
            yaml("rules:", "  - name: r1", "    limit: 5", "   period: 1m"), 4, "invalid YAML"),
        broken("an unclosed flow list",
            yaml("rules:", "  - name: r1", "    match:", "      methods: [GET, POST", "    limit: 5"), 5, "invalid YAML"),
        broken("an unclosed quote",
            yaml("backend: \"local", "rules: []"), 3, "invalid YAML", "quoted"),
        broken("two documents in one file",
            yaml("mode: shadow", "---", "mode: enforce"), 2, "invalid YAML", "second document", "one document"),
        broken("a period too long to count",
            yaml("rules:", "  - name: r1", "    limit: 5", "    period: 9999999999999d"), 4, "period '9999999999999d' is too long"),
        broken("a '?' inside a flow list",
            rule("    match:", "      path: [/v?/items]"), 6, "invalid YAML", "inside [ ] or { }", "quote"),
        broken("a key given twice",
            rule("    limit: 6"), 5, "duplicate key 'limit'", "rule 'r1'", "line 3"),
        broken("a top-level key given twice",
            yaml("headers: draft", "mode: shadow", "headers: none"), 3, "duplicate key 'headers'", "line 1"),
        broken("the file is a list",
            yaml("- name: r1", "  limit: 5"), 1, "must be a mapping", "rules:"),
        // --- per-client: a share of a concurrency rule's permits -------------------------------
        broken("per-client on a rate rule",
            rule("    per-client: 50%"), 5, "per-client applies to the concurrency"),
        broken("per-client over 100%",
            rule("    algorithm: concurrency", "    key: global", "    per-client: 150%"), 7,
            "per-client must be a share such as 50%", "150%"),
        broken("per-client in words",
            rule("    algorithm: concurrency", "    key: global", "    per-client: half"), 7,
            "per-client must be a share", "off"),
        broken("per-client-key alone on a rule not keyed global",
            rule("    algorithm: concurrency", "    key: header:X-Tenant", "    per-client-key: ip"), 7,
            "per-client-key needs per-client"),
        broken("a share per client of a rule keyed by client already",
            rule("    algorithm: concurrency", "    per-client: 50%"), 6,
            "per-client-key [ip] is the rule's own key"),
        // --- an empty 'rules:': what a file cut short reads as -----------------------------------
        broken("an empty 'rules:'",
            yaml("client-ip:", "  trusted-proxies: 1", "rules:"), 3, "'rules:' is empty", "rules: []"),
        broken("a 'rules:' with only a comment",
            yaml("backend: local", "rules:   # to do"), 2, "'rules:' is empty", "rules: []"),
        broken("a 'rules: null'",
            yaml("rules: null"), 1, "'rules:' is empty"),
        // --- unknown keys ---------------------------------------------------------------------
        broken("a misspelt period",
            yaml("rules:", "  - name: r1", "    limit: 5", "    perod: 1m", "    period: 1m"), 4,
            "unknown key 'perod'", "rule 'r1'", "did you mean 'period'?"),
        broken("a misspelt algorithm key",
            rule("    algoritm: gcra"), 5, "unknown key 'algoritm'", "did you mean 'algorithm'?"),
        broken("a camelCase key",
            rule("    onFailure: deny"), 5, "unknown key 'onFailure'", "did you mean 'on-failure'?"),
        broken("a misspelt top-level key",
            yaml("rule:", "  - name: r1"), 1, "unknown key 'rule'", "top level", "did you mean 'rules'?"),
        broken("an unknown key with no near match lists the allowed ones",
            rule("    colour: blue"), 5, "unknown key 'colour'", "allowed:", "period", "max-keys"),
        broken("a match key written at rule level",
            rule("    methods: [GET]"), 5, "unknown key 'methods'", "under 'match:'"),
        broken("a rule key written at the top level",
            yaml("limit: 5"), 1, "unknown key 'limit'", "inside a rule"),
        broken("a misspelt redis key",
            yaml("backend: redis", "redis:", "  url: redis://cache:6379", "  uri: redis://cache:6379"), 3,
            "unknown key 'url'", "in redis", "did you mean 'uri'?"),
        broken("a misspelt match key",
            rule("    match:", "      paths: /api/**"), 6, "unknown key 'paths'", "match", "did you mean 'path'?"),
        // --- required values and numbers ------------------------------------------------------
        broken("a rule without limit",
            yaml("rules:", "  - name: r1", "    period: 1m"), 2, "rule 'r1'", "limit is missing"),
        broken("a rule without period",
            yaml("rules:", "  - name: r1", "    limit: 5"), 2, "rule 'r1'", "period is missing"),
        broken("a rule without name",
            yaml("rules:", "  - limit: 5", "    period: 1m"), 2, "rule #1", "no name"),
        broken("a negative limit",
            yaml("rules:", "  - name: r1", "    limit: -5", "    period: 1m"), 3,
            "limit must be a positive integer", "got '-5'"),
        broken("a zero limit",
            yaml("rules:", "  - name: r1", "    limit: 0", "    period: 1m"), 3, "limit must be a positive integer", "got '0'"),
        broken("a limit in words",
            yaml("rules:", "  - name: r1", "    limit: five", "    period: 1m"), 3,
            "limit must be a positive integer, got 'five'"),
        broken("a fractional limit",
            yaml("rules:", "  - name: r1", "    limit: 2.5", "    period: 1m"), 3, "limit must be a positive integer", "'2.5'"),
        broken("a limit that is a list",
            yaml("rules:", "  - name: r1", "    limit: [5]", "    period: 1m"), 3, "limit must be a positive integer", "a list"),
        broken("an empty limit",
            yaml("rules:", "  - name: r1", "    limit:", "    period: 1m"), 3, "limit must be a positive integer", "got nothing"),
        broken("a huge limit",
            yaml("rules:", "  - name: r1", "    limit: 99999999999999999999", "    period: 1m"), 3, "limit", "too large"),
        broken("a zero burst",
            rule("    burst: 0"), 5, "burst must be a positive integer", "'0'"),
        broken("a negative max-keys",
            rule("    max-keys: -1"), 5, "max-keys must be a positive integer"),
        broken("quota-headers as a word",
            rule("    quota-headers: yes"), 5, "quota-headers must be true or false", "'yes'"),
        // --- durations ----------------------------------------------------------------------
        broken("a period without a unit",
            yaml("rules:", "  - name: r1", "    limit: 5", "    period: 60"), 4,
            "period must be a duration", "'60'", "unit is missing", "500ms, 10s, 1m, 1h, 1d"),
        broken("a period in words",
            yaml("rules:", "  - name: r1", "    limit: 5", "    period: 1 minute"), 4,
            "period must be a duration", "'1 minute'", "ms, s, m, h or d"),
        broken("a zero period",
            yaml("rules:", "  - name: r1", "    limit: 5", "    period: 0s"), 4, "period must be longer than zero"),
        broken("a bad redis timeout",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  timeout: fast"), 4, "redis.timeout must be a duration", "'fast'"),
        broken("a max-wait shorter than the timeout",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  timeout: 200ms", "  max-wait: 100ms"), 5,
            "redis.max-wait must be at least redis.timeout (200ms)", "got '100ms'"),
        broken("a max-wait shorter than the default timeout",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wait: 20ms"), 4,
            "redis.max-wait must be at least redis.timeout (50ms, the default)", "got '20ms'"),
        broken("a max-wait longer than the agent holds a request",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wait: 1m"), 4,
            "redis.max-wait must be at most 30s", "no request is held", "got '1m'"),
        broken("a max-wait without a unit",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wait: 2"), 4,
            "redis.max-wait must be a duration", "'2'", "unit is missing"),
        broken("a zero max-wait",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wait: 0s"), 4,
            "redis.max-wait must be longer than zero"),
        broken("a max-wait that is a list",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wait: [1s]"), 4,
            "redis.max-wait must be a duration", "a list"),
        broken("no waiting threads at all",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-waiting-threads: 0"), 4,
            "redis.max-waiting-threads must be a whole number of request threads from 1 to 10000"),
        broken("waiting threads in words",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-waiting-threads: many"),
            4, "redis.max-waiting-threads must be a whole number", "'many'"),
        broken("a misspelt max-wait",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  max-wiat: 2s"), 4,
            "unknown key 'max-wiat'", "in redis", "did you mean 'max-wait'?"),
        broken("a camelCase max-wait",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  maxWait: 2s"), 4,
            "unknown key 'maxWait'", "did you mean 'max-wait'?"),
        // --- enumerations ---------------------------------------------------------------------
        broken("an unknown algorithm",
            rule("    algorithm: leaky-bucket"), 5,
            "unknown algorithm 'leaky-bucket'", "token-bucket, gcra, fixed-window, sliding-window, sliding-log, concurrency"),
        broken("a misspelt algorithm",
            rule("    algorithm: token_bucket"), 5, "unknown algorithm", "did you mean 'token-bucket'?"),
        broken("an unknown backend",
            yaml("backend: memcached"), 1, "backend must be one of local, redis", "'memcached'"),
        broken("an unknown headers style",
            yaml("headers: ietf"), 1, "headers must be one of draft, draft-8, legacy, both, none", "'ietf'"),
        broken("an unknown global mode",
            yaml("mode: dry-run"), 1, "mode must be one of enforce, shadow", "'dry-run'"),
        broken("an unknown on-failure",
            rule("    on-failure: open"), 5, "on-failure must be one of allow, deny, local", "'open'"),
        broken("a misspelt rule mode",
            rule("    mode: shadw"), 5, "rule 'r1'", "mode must be one of enforce, shadow", "did you mean 'shadow'?"),
        // --- match --------------------------------------------------------------------------
        broken("an HTTP method that does not exist",
            rule("    match:", "      methods: [GET, PSOT]"), 6, "'PSOT' is not an HTTP method", "did you mean 'POST'?"),
        broken("a path without a leading slash",
            rule("    match:", "      path: api/**"), 6, "match.path 'api/**' must start with '/'"),
        broken("one bad path in a list",
            rule("    match:", "      path:", "        - /ok", "        - nope"), 8, "match.path 'nope'"),
        // a glob that no normalised request path can ever match: refused with the form it needs
        broken("a path glob with a trailing slash",
            rule("    match:", "      path: /login/"), 6, "match.path '/login/' can never match", "'/login'"),
        broken("a path glob with a doubled slash",
            rule("    match:", "      path: /api//orders"), 6, "can never match", "'/api/orders'"),
        broken("a path glob with a dot segment",
            rule("    match:", "      path: /api/./orders/*"), 6, "can never match", "'/api/orders/*'"),
        broken("a path glob with a dot-dot segment",
            rule("    match:", "      path: /static/../login"), 6, "can never match", "'/login'"),
        broken("a path glob with a path parameter",
            rule("    match:", "      path: /login;jsessionid=*"), 6, "can never match", "'/login'"),
        broken("a path glob with an escaped letter",
            rule("    match:", "      path: /%6Cogin"), 6, "can never match", "'/login'"),
        broken("a path glob with lower-case hex in an escape",
            rule("    match:", "      path: /files/a%2fb"), 6, "can never match", "'/files/a%2Fb'"),
        broken("a skip path glob with a trailing slash",
            rule("    skip: { path: \"/health/\" }"), 5, "skip.path '/health/' can never match", "'/health'"),
        broken("a route without a leading slash",
            rule("    match:", "      route: api/orders/{id}"), 6, "match.route must start with '/'"),
        broken("match that is not a mapping",
            rule("    match: /login"), 5, "match must be a mapping", "'/login'"),
        // --- match.hosts, match.headers, skip -------------------------------------------------
        broken("host instead of hosts",
            rule("    match:", "      host: api.example.com"), 6, "unknown key 'host'", "did you mean 'hosts'?"),
        broken("hosts written at rule level",
            rule("    hosts: [api.example.com]"), 5, "unknown key 'hosts'", "under 'match:'"),
        broken("a host with a port",
            rule("    match:", "      hosts: [api.example.com:8443]"), 6, "match.hosts 'api.example.com:8443' must not have a port", "'api.example.com'"),
        broken("a host given as a URL",
            rule("    match:", "      hosts: https://api.example.com/"), 6, "match.hosts", "without a scheme or path"),
        broken("an empty list of hosts",
            rule("    match:", "      hosts: []"), 6, "match.hosts is an empty list"),
        broken("headers as a list",
            rule("    match:", "      headers: [X-Api-Version]"), 6, "match.headers must be a mapping", "present", "absent"),
        broken("a header without a value",
            rule("    match:", "      headers:", "        X-Api-Version:"), 7, "match.headers.X-Api-Version must be a value glob"),
        broken("a header named twice in different cases",
            rule("    match:", "      headers: { X-Api-Version: '2', x-api-version: '3' }"), 6, "names 'x-api-version' twice", "case-insensitive"),
        broken("a header name with a space",
            rule("    match:", "      headers: { 'X Api': v2 }"), 6, "match.headers", "is not a header name"),
        broken("a misspelt skip key",
            rule("    skip:", "      header: { User-Agent: 'ELB-HealthChecker/*' }"), 6, "unknown key 'header'", "in skip of rule 'r1'", "did you mean 'headers'?"),
        broken("skip of a route",
            rule("    skip:", "      route: /health"), 6, "skip.route is not supported", "path"),
        broken("an empty skip",
            rule("    skip: {}"), 5, "skip must be a mapping", "never counts"),
        broken("a skip path without its slash",
            rule("    skip: { path: health }"), 5, "skip.path 'health' must start with '/'"),
        broken("a skip method that is not one",
            rule("    skip: { methods: [GTE] }"), 5, "'GTE' is not an HTTP method", "allowed: GET"),
        broken("a misspelt skip at rule level",
            rule("    skp: { path: /health }"), 5, "unknown key 'skp'", "did you mean 'skip'?"),
        // --- key ----------------------------------------------------------------------------
        broken("an unknown key part",
            rule("    key: user"), 5, "unknown key part 'user'", "ip, global, principal, route, header:NAME"),
        broken("a misspelt key part",
            rule("    key: [ip, heder:X-Api-Key]"), 5, "unknown key part 'heder:X-Api-Key'", "did you mean 'header:NAME'?"),
        broken("a header key part without a name",
            rule("    key: \"header:\""), 5, "key part 'header:' needs a name", "header:X-Api-Key"),
        broken("a header name with a space",
            rule("    key: \"header:X Api Key\""), 5, "'X Api Key' is not a valid header name"),
        broken("the same key part twice",
            rule("    key: [ip, ip]"), 5, "key part 'ip' is listed twice"),
        broken("global with other key parts",
            rule("    key: [global, ip]"), 5, "'global'", "cannot be combined"),
        // --- cost ---------------------------------------------------------------------------
        broken("a cost map key that is not a path",
            rule("    cost: { default: 1, search: 5 }"), 5, "cost keys must be 'default' or a path glob", "'search'"),
        broken("a zero cost",
            rule("    cost: { default: 1, /api/search: 0 }"), 5, "cost for '/api/search' must be a positive integer"),
        broken("a cost larger than the bucket",
            rule("    burst: 10", "    cost: { /api/export: 50 }"), 6, "cost of 50", "burst of 10", "always be refused"),
        // --- rules and names ----------------------------------------------------------------
        broken("two rules with the same name",
            yaml("rules:", "  - name: r1", "    limit: 5", "    period: 1m", "  - name: r1", "    limit: 5", "    period: 1m"), 5,
            "duplicate rule name 'r1'", "line 2"),
        broken("a rule name with a space",
            yaml("rules:", "  - name: login per ip", "    limit: 5", "    period: 1m"), 2,
            "name must use only letters, digits", "'login per ip'"),
        broken("rules that are a mapping",
            yaml("rules:", "  name: r1"), 2, "rules must be a list", "- name:"),
        broken("a rule that is a string",
            yaml("rules:", "  - login"), 2, "rule #1 must be a mapping", "'login'"),
        // --- redis and client-ip -------------------------------------------------------------
        broken("backend redis without a redis section",
            yaml("backend: redis"), 1, "backend is 'redis'", "no 'redis' section"),
        broken("redis without uri or cluster",
            yaml("backend: redis", "redis:", "  timeout: 10ms"), 2, "redis needs 'uri:'", "cluster"),
        broken("redis with both uri and cluster",
            yaml("backend: redis", "redis:", "  uri: redis://a", "  cluster: [redis://b]"), 4, "both 'uri' and 'cluster'", "exactly one"),
        broken("redis settings with a local backend",
            yaml("redis:", "  uri: redis://cache:6379"), 1, "'redis' section is given", "backend: redis"),
        broken("a missing environment variable",
            yaml("backend: redis", "redis:", "  uri: redis://${MISSING}:6379"), 3,
            "redis.uri", "environment variable MISSING", "not set"),
        broken("an unclosed environment reference",
            yaml("backend: redis", "redis:", "  uri: redis://${REDIS_HOST:6379"), 3, "'${' is not closed"),
        broken("a redis uri with another scheme",
            yaml("backend: redis", "redis:", "  uri: http://${REDIS_HOST}:6379"), 3,
            "redis.uri must start with redis://, rediss:// or redis-sentinel://", "'http://cache:6379'"),
        broken("a cluster that is one string",
            yaml("backend: redis", "redis:", "  cluster: redis://a:6379"), 3, "redis.cluster must be a list"),
        broken("a refusal cache that is not a boolean",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  refusal-cache: yes please"), 4,
            "redis.refusal-cache must be true or false"),
        broken("a misspelt refusal cache",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  refusal-cach: true"), 4,
            "unknown key 'refusal-cach'", "did you mean 'refusal-cache'?"),
        broken("a lease of no tokens",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  lease-tokens: 0"), 4,
            "redis.lease-tokens must be a whole number of tokens from 1 (no leasing) to 10000"),
        broken("a lease too large",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  lease-tokens: 50000"), 4,
            "redis.lease-tokens must be", "too large"),
        broken("a misspelt tls key",
            yaml("backend: redis", "redis:", "  uri: rediss://cache", "  tls:", "    ca-fil: /ca.pem"), 5,
            "unknown key 'ca-fil'", "in redis.tls", "did you mean 'ca-file'?"),
        broken("an unknown tls verify-peer",
            yaml("backend: redis", "redis:", "  uri: rediss://cache", "  tls:", "    verify-peer: ful"), 5,
            "redis.tls.verify-peer must be one of full, ca, none", "did you mean 'full'?"),
        broken("tls settings for a plain redis:// server",
            yaml("backend: redis", "redis:", "  uri: redis://cache", "  tls:", "    ca-file: /ca.pem"), 4,
            "redis.tls applies to rediss:// only"),
        broken("a tls section that is a string",
            yaml("backend: redis", "redis:", "  uri: rediss://cache", "  tls: /ca.pem"), 4,
            "redis.tls must be a mapping"),
        broken("a negative hop count",
            yaml("client-ip:", "  trusted-proxies: -1"), 2, "client-ip.trusted-proxies must be a number of proxy hops"),
        broken("a bad CIDR",
            yaml("client-ip:", "  trusted-proxies: [10.0.0.0/8, 10.0.0.0/33]"), 2, "'10.0.0.0/33' is not an IP address or CIDR"),
        broken("an IPv6 prefix out of range",
            yaml("client-ip:", "  ipv6-prefix: 129"), 2, "client-ip.ipv6-prefix must be a prefix length from 1 to 128", "'129'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void isRefusedWithOneClearProblem(String what, String yaml, int line, String[] words) {
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "rules.yaml", ENV), what);
    List<ConfigProblem> problems = e.problems();
    if (problems.size() != 1) {
      fail("expected exactly one problem, got:\n" + e.getMessage());
    }
    ConfigProblem p = problems.get(0);
    assertEquals(line, p.line(), () -> "line of: " + p);
    assertTrue(p.column() >= 1, () -> "column of: " + p);
    assertEquals("rules.yaml", p.source());
    for (String word : words) {
      assertTrue(
          p.message().toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
          () -> "'" + word + "' missing from: " + p);
    }
    assertTrue(p.toString().startsWith("rules.yaml: line " + line + ", column " + p.column() + ": "), p::toString);
    assertEquals(p.toString(), e.getMessage());
  }

  @Test
  void everyProblemInAFileIsReportedTogetherInFileOrder() {
    String yaml =
        yaml(
            "backend: redis",                    // 1
            "redis:",                            // 2
            "  uri: redis://${NOPE}:6379",       // 3
            "headers: loud",                     // 4
            "rules:",                            // 5
            "  - name: a",                       // 6
            "    limit: five",                   // 7
            "    perod: 1m",                     // 8
            "  - name: b",                       // 9
            "    limit: 5",                      // 10
            "    period: 10 seconds",            // 11
            "    key: [ip, usr]",                // 12
            "  - name: a",                       // 13
            "    limit: 1",                      // 14
            "    period: 1s");                   // 15
    ConfigException e =
        assertThrows(ConfigException.class, () -> RulesFileParser.parse(yaml, "multi.yaml", ENV));
    List<Integer> lines = new ArrayList<>();
    for (ConfigProblem p : e.problems()) {
      lines.add(p.line());
    }
    // line 6 twice: rule 'a' lacks a period (its 'perod' is reported on line 8)
    assertEquals(Arrays.asList(3, 4, 6, 7, 8, 11, 12, 13), lines, e.getMessage());
    String[] messageLines = e.getMessage().split("\n");
    assertEquals(e.problems().size(), messageLines.length);
    for (String l : messageLines) {
      assertTrue(l.startsWith("multi.yaml: line "), l);
    }
    assertTrue(e.getMessage().contains("did you mean 'period'?"), e.getMessage());
    assertTrue(e.getMessage().contains("duplicate rule name 'a'"), e.getMessage());
  }

  @Test
  void aFileIsNamedByItsPathAsGiven(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.write(file, yaml("rules:", "  - name: r1", "    limit: 5", "    period: 5 mins").getBytes("UTF-8"));
    ConfigException e = assertThrows(ConfigException.class, () -> RulesFileParser.parse(file));
    assertEquals(file + ": line 4, column 13: rule 'r1': period must be a duration, got '5 mins'; write "
        + Durations.ACCEPTED_FORMS, e.getMessage());
  }

  @Test
  void aMissingFileIsOneProblemWithoutALine(@TempDir Path dir) {
    Path file = dir.resolve("absent.yaml");
    ConfigException e = assertThrows(ConfigException.class, () -> RulesFileParser.parse(file));
    assertEquals(1, e.problems().size());
    assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  @Test
  void aFileThatIsNotUtf8IsRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("latin1.yaml");
    Files.write(file, new byte[] {'r', 'u', 'l', 'e', 's', ':', ' ', (byte) 0xE9, '\n'});
    ConfigException e = assertThrows(ConfigException.class, () -> RulesFileParser.parse(file));
    assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
  }
}
