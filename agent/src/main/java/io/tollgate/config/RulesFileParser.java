package io.tollgate.config;

import io.tollgate.keys.Cidr;
import io.tollgate.keys.TrustedProxies;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.CalendarQuota;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads a rules file (section 3 of the interfaces document) into an immutable {@link RulesConfig}.
 *
 * <p>Validation is strict and complete: every problem in the file is collected, each with the line and
 * column of the offending node, and reported together in one {@link ConfigException}.
 */
public final class RulesFileParser {
  /** Environment lookup used for {@code ${NAME}} in redis settings unless another one is passed. */
  public static final Function<String, String> SYSTEM_ENV = System::getenv;

  static final List<String> TOP_LEVEL_KEYS =
      Arrays.asList("backend", "redis", "client-ip", "headers", "mode", "allow", "rules");
  static final List<String> REDIS_KEYS =
      Arrays.asList("uri", "cluster", "timeout", "tls", "refusal-cache", "lease-tokens");
  /** A lease larger than this would hold back too much of a limit in one instance. */
  static final long MAX_LEASE_TOKENS = 10_000;
  static final List<String> REDIS_TLS_KEYS = Arrays.asList("ca-file", "verify-peer");
  static final List<String> CLIENT_IP_KEYS = Arrays.asList("trusted-proxies", "ipv6-prefix");
  static final List<String> RULE_KEYS =
      Arrays.asList(
          "name",
          "match",
          "key",
          "key-fallback",
          "algorithm",
          "limit",
          "period",
          "burst",
          "cost",
          "on-failure",
          "mode",
          "quota-headers",
          "max-keys",
          "limits",
          "max-delay",
          "calendar",
          "time-zone",
          "cost-header",
          "plans",
          "allow",
          "penalty");
  static final List<String> LIMIT_KEYS = Arrays.asList("limit", "period", "burst");
  static final List<String> PLANS_KEYS = Arrays.asList("header", "default", "limits");
  static final List<String> ALLOW_KEYS = Arrays.asList("cidrs", "keys");
  static final List<String> PENALTY_KEYS = Arrays.asList("after", "within", "box-for");
  static final List<String> CALENDAR_UNITS = Arrays.asList("day", "week", "month", "year");
  /** The longest a gcra rule may hold a request: longer would tie up the server's threads. */
  static final long MAX_DELAY_CAP_NANOS = 10_000_000_000L;
  static final List<String> MATCH_KEYS = Arrays.asList("path", "methods", "route");
  static final List<String> KEY_PARTS_SIMPLE = Arrays.asList("ip", "global", "principal", "route");
  static final List<String> KEY_PARTS_NAMED = Arrays.asList("header", "param", "cookie");
  static final List<String> HTTP_METHODS =
      Arrays.asList(
          "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "QUERY",
          "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH");

  private static final Pattern RULE_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9][0-9_]*");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern LEADING_ZERO_OCTET =
      Pattern.compile("(^|[.:])0[0-9]+(?=[./]|$)");
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private RulesFileParser() {}

  /** Reads and validates a UTF-8 rules file; problems name the file by the path as given. */
  public static RulesConfig parse(Path file) throws ConfigException {
    return parse(file, SYSTEM_ENV);
  }

  /** As {@link #parse(Path)}, with {@code ${NAME}} looked up in {@code env}. */
  public static RulesConfig parse(Path file, Function<String, String> env) throws ConfigException {
    String source = file.toString();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw single(source, "the rules file does not exist");
    } catch (IOException e) {
      throw single(source, "the rules file cannot be read: " + e);
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw single(source, "the rules file is not valid UTF-8 text");
    }
    return parse(text, source, env);
  }

  /**
   * Checks a rules file, as {@code tollgate-agent.jar validate FILE} does: the problems found, in file
   * order, each printable as {@code <file>: line N, column M: <message>}; empty when the file is valid.
   */
  public static List<ConfigProblem> validate(Path file, Function<String, String> env) {
    try {
      parse(file, env);
      return Collections.emptyList();
    } catch (ConfigException e) {
      return e.problems();
    }
  }

  /** Validates rules given as text; {@code sourceName} names them in problems. */
  public static RulesConfig parse(String yaml, String sourceName) throws ConfigException {
    return parse(yaml, sourceName, SYSTEM_ENV);
  }

  /** As {@link #parse(String, String)}, with {@code ${NAME}} looked up in {@code env}. */
  public static RulesConfig parse(String yaml, String sourceName, Function<String, String> env)
      throws ConfigException {
    Run run = new Run(sourceName, env);
    RulesConfig config = run.parse(yaml == null ? "" : yaml);
    if (!run.problems.isEmpty()) {
      List<ConfigProblem> sorted = new ArrayList<>(run.problems);
      sorted.sort(
          Comparator.comparingInt(ConfigProblem::line).thenComparingInt(ConfigProblem::column));
      throw new ConfigException(sorted);
    }
    return config;
  }

  private static ConfigException single(String source, String message) {
    return new ConfigException(
        Collections.singletonList(new ConfigProblem(source, 0, 0, message)));
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers shared with tests.

  /** The closest of {@code candidates} to {@code word} within a small edit distance, or null. */
  static String suggest(String word, List<String> candidates) {
    String w = normalizeKey(word);
    int allowed = w.length() <= 3 ? 1 : w.length() <= 8 ? 2 : 3;
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = editDistance(w, c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    return bestDistance <= allowed ? best : null;
  }

  /** lowerCamel, snake_case and UPPER spellings of a key, as kebab-case. */
  private static String normalizeKey(String word) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(word.charAt(i - 1))) {
        sb.append('-');
      }
      sb.append(c == '_' || c == ' ' ? '-' : Character.toLowerCase(c));
    }
    return sb.toString();
  }

  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** RFC 9110 token: one or more tchar. */
  static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * An IPv4 or IPv6 address, optionally with a /prefix that fits it: whatever {@link Cidr#parse},
   * which the agent builds the client-address resolver and allowlists with, accepts, so that a file
   * that passes here is one the agent can apply.
   */
  static boolean isCidr(String s) {
    return cidrProblem(s) == null;
  }

  /** Why {@code s} is not a CIDR the agent accepts, or null when it is one. */
  static String cidrProblem(String s) {
    try {
      Cidr.parse(s);
      return null;
    } catch (IllegalArgumentException e) {
      return LEADING_ZERO_OCTET.matcher(s).find()
          ? "an IPv4 octet with a leading zero, which some tools read as octal"
          : e.getMessage();
    }
  }

  // ---------------------------------------------------------------------------------------------

  /** One parse: the source, the environment and the problems found so far. */
  private static final class Run {
    private final String source;
    private final Function<String, String> env;
    final List<ConfigProblem> problems = new ArrayList<>();

    Run(String source, Function<String, String> env) {
      this.source = source == null ? "<rules>" : source;
      this.env = env == null ? SYSTEM_ENV : env;
    }

    RulesConfig parse(String text) {
      Node root;
      try {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(true); // we report duplicates ourselves, with both lines
        options.setMaxAliasesForCollections(50);
        options.setAllowRecursiveKeys(false);
        // What Yaml.compose does, without creating a Yaml: its constructor and representer are
        // never used here, and their classes initialize java.util.logging (SnakeYAML's
        // TypeDescription has a JUL logger), which an agent must leave to the application.
        root = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options),
                new Resolver(), options)
            .getSingleNode();
      } catch (MarkedYAMLException e) {
        syntaxProblem(e);
        return null;
      } catch (YAMLException e) {
        problems.add(new ConfigProblem(source, 0, 0, "invalid YAML: " + e.getMessage()));
        return null;
      }
      if (root == null || isNull(root)) {
        return new RulesConfig(source, null, null, null, null, null, Collections.emptyList(), null);
      }
      if (!(root instanceof MappingNode)) {
        problem(
            root,
            "the rules file must be a mapping of settings such as 'backend:' and 'rules:', got "
                + describe(root));
        return null;
      }
      Map<String, Integer> lines = new HashMap<>();
      Map<String, NodeTuple> top = fields((MappingNode) root, TOP_LEVEL_KEYS, "at the top level", "");
      recordLines(top, "", lines);

      Backend backend = enumValue(top.get("backend"), "backend", Backend.values(), "");
      HeadersMode headers = enumValue(top.get("headers"), "headers", HeadersMode.values(), "");
      Mode mode = enumValue(top.get("mode"), "mode", Mode.values(), "");

      RedisSettings redis = null;
      NodeTuple redisTuple = top.get("redis");
      NodeTuple backendTuple = top.get("backend");
      if (redisTuple != null) {
        if (backend != Backend.REDIS && !(backendTuple != null && backend == null)) {
          problem(
              redisTuple.getKeyNode(),
              "a 'redis' section is given but backend is "
                  + (backendTuple == null ? "not set (so local)" : "'local'")
                  + "; add 'backend: redis' or remove the redis section");
        }
        redis = redis(redisTuple, backend == Backend.REDIS, lines);
      } else if (backend == Backend.REDIS) {
        problem(
            backendTuple.getValueNode(),
            "backend is 'redis' but there is no 'redis' section; add one with 'uri:' (or 'cluster:')");
      }

      ClientIpSettings clientIp = clientIp(top.get("client-ip"), lines);

      AllowConfig topAllow = AllowConfig.NONE;
      NodeTuple topAllowTuple = top.get("allow");
      if (topAllowTuple != null) {
        AllowConfig a = allow(topAllowTuple.getValueNode(), "", false);
        if (a != null) {
          topAllow = a;
        }
      }
      List<RuleConfig> rules = rules(top.get("rules"), topAllow);
      return new RulesConfig(source, backend, redis, clientIp, headers, mode, rules, lines);
    }

    // --- sections ---------------------------------------------------------------------------

    private RedisSettings redis(NodeTuple tuple, boolean required, Map<String, Integer> lines) {
      Node node = tuple.getValueNode();
      if (isNull(node)) {
        if (required) {
          problem(tuple.getKeyNode(), "redis needs 'uri:' (or 'cluster:'), but the section is empty");
        }
        return null;
      }
      if (!(node instanceof MappingNode)) {
        problem(node, "redis must be a mapping with 'uri:' or 'cluster:', got " + describe(node));
        return null;
      }
      Map<String, NodeTuple> f = fields((MappingNode) node, REDIS_KEYS, "in redis", "redis.");
      recordLines(f, "redis.", lines);
      boolean ok = true;
      String uri = null;
      NodeTuple uriTuple = f.get("uri");
      if (uriTuple != null) {
        String raw = string(uriTuple.getValueNode(), "redis.uri", "a Redis URI such as redis://127.0.0.1:6379", "");
        if (raw == null) {
          ok = false;
        } else {
          uri = expand(raw, uriTuple.getValueNode(), "redis.uri");
          if (uri == null) {
            ok = false;
          } else if (!hasScheme(uri, "redis://", "rediss://", "redis-sentinel://")) {
            problem(
                uriTuple.getValueNode(),
                "redis.uri must start with redis://, rediss:// or redis-sentinel://, got '"
                    + RedisSettings.redact(uri)
                    + "'");
            ok = false;
          }
        }
      }
      List<String> cluster = new ArrayList<>();
      NodeTuple clusterTuple = f.get("cluster");
      if (clusterTuple != null) {
        Node cn = clusterTuple.getValueNode();
        if (isNull(cn)) {
          // "cluster:" with nothing: the same as an empty list
        } else if (!(cn instanceof SequenceNode)) {
          problem(
              cn,
              "redis.cluster must be a list of seed node URIs such as [redis://10.0.0.1:6379], got "
                  + describe(cn));
          ok = false;
        } else {
          for (Node item : ((SequenceNode) cn).getValue()) {
            String raw = string(item, "each entry of redis.cluster", "a seed node URI such as redis://10.0.0.1:6379", "");
            String seed = raw == null ? null : expand(raw, item, "redis.cluster");
            if (seed == null) {
              ok = false;
            } else if (!hasScheme(seed, "redis://", "rediss://")) {
              problem(
                  item,
                  "each entry of redis.cluster must start with redis:// or rediss://, got '"
                      + RedisSettings.redact(seed)
                      + "'");
              ok = false;
            } else {
              cluster.add(seed);
            }
          }
        }
      }
      boolean clusterMalformed =
          clusterTuple != null
              && !isNull(clusterTuple.getValueNode())
              && !(clusterTuple.getValueNode() instanceof SequenceNode);
      boolean hasUri = uriTuple != null;
      boolean hasCluster = clusterTuple != null && clusterTuple.getValueNode() instanceof SequenceNode
          && !((SequenceNode) clusterTuple.getValueNode()).getValue().isEmpty();
      if (clusterMalformed) {
        // already reported
      } else if (hasUri && hasCluster) {
        problem(
            clusterTuple.getKeyNode(),
            "redis has both 'uri' and 'cluster'; give exactly one of them");
        ok = false;
      } else if (!hasUri && !hasCluster && clusterTuple == null) {
        problem(tuple.getKeyNode(), "redis needs 'uri:' (or 'cluster:' with a list of seed nodes)");
        ok = false;
      } else if (!hasUri && !hasCluster) {
        problem(
            clusterTuple.getKeyNode(),
            "redis.cluster is empty and there is no redis.uri; give one of them");
        ok = false;
      }
      long timeout = RedisSettings.DEFAULT_TIMEOUT_NANOS;
      NodeTuple timeoutTuple = f.get("timeout");
      if (timeoutTuple != null) {
        Long t = duration(timeoutTuple.getValueNode(), "redis.timeout", "");
        if (t == null) {
          ok = false;
        } else {
          timeout = t;
        }
      }
      boolean refusalCache = false;
      NodeTuple refusalTuple = f.get("refusal-cache");
      if (refusalTuple != null) {
        Boolean b = bool(refusalTuple.getValueNode(), "redis.refusal-cache", "");
        if (b == null) {
          ok = false;
        } else {
          refusalCache = b;
        }
      }
      long leaseTokens = 1;
      NodeTuple leaseTuple = f.get("lease-tokens");
      if (leaseTuple != null) {
        Long n =
            integer(leaseTuple.getValueNode(), "redis.lease-tokens",
                "a whole number of tokens from 1 (no leasing) to " + MAX_LEASE_TOKENS, 1,
                MAX_LEASE_TOKENS, "");
        if (n == null) {
          ok = false;
        } else {
          leaseTokens = n;
        }
      }
      String caFile = null;
      RedisSettings.VerifyPeer verifyPeer = RedisSettings.VerifyPeer.FULL;
      NodeTuple tlsTuple = f.get("tls");
      if (tlsTuple != null && !isNull(tlsTuple.getValueNode())) {
        Node tn = tlsTuple.getValueNode();
        if (!(tn instanceof MappingNode)) {
          problem(tn, "redis.tls must be a mapping with 'ca-file:' and/or 'verify-peer:', got " + describe(tn));
          ok = false;
        } else {
          Map<String, NodeTuple> t = fields((MappingNode) tn, REDIS_TLS_KEYS, "in redis.tls", "redis.tls.");
          recordLines(t, "redis.tls.", lines);
          NodeTuple caTuple = t.get("ca-file");
          if (caTuple != null) {
            String raw = string(caTuple.getValueNode(), "redis.tls.ca-file", "the path of a PEM file of CA certificates", "");
            caFile = raw == null ? null : expand(raw, caTuple.getValueNode(), "redis.tls.ca-file");
            if (caFile == null) {
              ok = false;
            }
          }
          NodeTuple verifyTuple = t.get("verify-peer");
          if (verifyTuple != null) {
            RedisSettings.VerifyPeer v =
                enumValue(verifyTuple, "redis.tls.verify-peer", RedisSettings.VerifyPeer.values(), "");
            if (v == null) {
              ok = false;
            } else {
              verifyPeer = v;
            }
          }
          boolean usesTls = (uri != null && hasScheme(uri, "rediss://"))
              || cluster.stream().anyMatch(seed -> hasScheme(seed, "rediss://"));
          boolean sentinel = uri != null && hasScheme(uri, "redis-sentinel://");
          if (!t.isEmpty() && !usesTls && !sentinel && (uri != null || !cluster.isEmpty())) {
            problem(
                tlsTuple.getKeyNode(),
                "redis.tls applies to rediss:// only, but the server is reached with redis://;"
                    + " write rediss:// to use TLS, or remove the tls section");
            ok = false;
          }
        }
      }
      return ok
          ? new RedisSettings(uri, cluster, timeout, refusalCache, leaseTokens, caFile, verifyPeer)
          : null;
    }

    private ClientIpSettings clientIp(NodeTuple tuple, Map<String, Integer> lines) {
      if (tuple == null || isNull(tuple.getValueNode())) {
        return ClientIpSettings.DEFAULTS;
      }
      Node node = tuple.getValueNode();
      if (!(node instanceof MappingNode)) {
        problem(
            node,
            "client-ip must be a mapping with 'trusted-proxies:' and/or 'ipv6-prefix:', got "
                + describe(node));
        return ClientIpSettings.DEFAULTS;
      }
      Map<String, NodeTuple> f =
          fields((MappingNode) node, CLIENT_IP_KEYS, "in client-ip", "client-ip.");
      recordLines(f, "client-ip.", lines);
      int hops = 0;
      List<String> cidrs = new ArrayList<>();
      NodeTuple proxies = f.get("trusted-proxies");
      if (proxies != null) {
        Node v = proxies.getValueNode();
        String expected =
            "a number of proxy hops (0 to " + TrustedProxies.MAX_HOPS
                + ") or a list of proxy networks such as [10.0.0.0/8]";
        if (v instanceof SequenceNode) {
          for (Node item : ((SequenceNode) v).getValue()) {
            String cidr =
                string(item, "each entry of client-ip.trusted-proxies", "a CIDR such as 10.0.0.0/8", "");
            if (cidr != null) {
              String why = cidrProblem(cidr.trim());
              if (why == null) {
                cidrs.add(cidr.trim());
              } else {
                problem(
                    item,
                    "client-ip.trusted-proxies: '"
                        + cidr
                        + "' is not an IP address or CIDR such as 10.0.0.0/8 or fd00::/8 ("
                        + why + ")");
              }
            }
          }
        } else if (v instanceof ScalarNode && !isNull(v)) {
          Long n = integer(v, "client-ip.trusted-proxies", expected, 0, TrustedProxies.MAX_HOPS, "");
          hops = n == null ? 0 : n.intValue();
        } else {
          problem(v, "client-ip.trusted-proxies must be " + expected + ", got " + describe(v));
        }
      }
      int ipv6Prefix = 64;
      NodeTuple prefix = f.get("ipv6-prefix");
      if (prefix != null) {
        Long n =
            integer(
                prefix.getValueNode(),
                "client-ip.ipv6-prefix",
                "a prefix length from 1 to 128",
                1,
                128,
                "");
        ipv6Prefix = n == null ? 64 : n.intValue();
      }
      return new ClientIpSettings(hops, cidrs, ipv6Prefix);
    }

    private List<RuleConfig> rules(NodeTuple tuple, AllowConfig topAllow) {
      List<RuleConfig> rules = new ArrayList<>();
      if (tuple == null || isNull(tuple.getValueNode())) {
        return rules;
      }
      Node node = tuple.getValueNode();
      if (!(node instanceof SequenceNode)) {
        problem(
            node,
            "rules must be a list of rules, each starting with '- name: ...', got " + describe(node));
        return rules;
      }
      Map<String, Node> names = new HashMap<>();
      int index = 0;
      for (Node item : ((SequenceNode) node).getValue()) {
        index++;
        RuleConfig rule = rule(item, index, names, topAllow);
        if (rule != null) {
          rules.add(rule);
        }
      }
      return rules;
    }

    private RuleConfig rule(Node item, int index, Map<String, Node> names, AllowConfig topAllow) {
      if (!(item instanceof MappingNode)) {
        problem(
            item,
            "rule #" + index + " must be a mapping with name, match, limit, period and so on, got "
                + describe(item));
        return null;
      }
      int before = problems.size();
      MappingNode map = (MappingNode) item;
      // The name comes first so that every other message can say which rule it is about.
      String name = null;
      String ctx = "rule #" + index + ": ";
      NodeTuple nameTuple = findKey(map, "name");
      if (nameTuple != null) {
        Node v = nameTuple.getValueNode();
        String n = isNull(v) || !(v instanceof ScalarNode) ? null : ((ScalarNode) v).getValue();
        if (n != null && RULE_NAME.matcher(n).matches()) {
          name = n;
          ctx = "rule '" + name + "': ";
        }
      }
      Map<String, NodeTuple> f = fields(map, RULE_KEYS, "in " + ctx.substring(0, ctx.length() - 2), "");
      Map<String, Integer> keyLines = new HashMap<>();
      recordLines(f, "", keyLines);

      if (nameTuple == null) {
        problem(
            item,
            "rule #" + index + " has no name; every rule needs a unique 'name:' (letters, digits, '.', '_', '-')");
      } else if (name == null) {
        Node v = nameTuple.getValueNode();
        if (isNull(v)) {
          problem(v, ctx + "name is empty; give the rule a unique name (letters, digits, '.', '_', '-')");
        } else {
          problem(
              v,
              ctx + "name must use only letters, digits, '.', '_' and '-', got " + describe(v));
        }
      } else {
        Node first = names.get(name);
        if (first != null) {
          problem(
              nameTuple.getValueNode(),
              "duplicate rule name '" + name + "': the rule on line " + line(first)
                  + " already uses it; rule names must be unique");
          name = null;
        } else {
          names.put(name, nameTuple.getValueNode());
        }
      }

      // match
      List<String> paths = new ArrayList<>();
      Set<String> methods = new LinkedHashSet<>();
      String route = null;
      NodeTuple matchTuple = f.get("match");
      if (matchTuple != null && !isNull(matchTuple.getValueNode())) {
        Node m = matchTuple.getValueNode();
        if (!(m instanceof MappingNode)) {
          problem(m, ctx + "match must be a mapping with 'path:', 'methods:' and/or 'route:', got " + describe(m));
        } else {
          Map<String, NodeTuple> mf = fields((MappingNode) m, MATCH_KEYS, "in match of " + ctx.substring(0, ctx.length() - 2), "match.");
          recordLines(mf, "match.", keyLines);
          NodeTuple pt = mf.get("path");
          if (pt != null) {
            paths = paths(pt.getValueNode(), ctx);
          }
          NodeTuple mt = mf.get("methods");
          if (mt != null) {
            methods = methods(mt.getValueNode(), ctx);
          }
          NodeTuple rt = mf.get("route");
          if (rt != null) {
            route = string(rt.getValueNode(), "match.route", "a route template starting with '/', such as /api/orders/{id}", ctx);
            if (route != null && !route.startsWith("/")) {
              problem(rt.getValueNode(), ctx + "match.route must start with '/', got '" + route + "'");
              route = null;
            }
          }
        }
      }

      List<String> key = Collections.singletonList("ip");
      NodeTuple keyTuple = f.get("key");
      if (keyTuple != null) {
        List<String> k = keyParts(keyTuple.getValueNode(), ctx);
        if (k != null) {
          key = k;
        }
      }
      List<String> keyFallback = null;
      NodeTuple fallbackTuple = f.get("key-fallback");
      if (fallbackTuple != null) {
        keyFallback = keyParts(fallbackTuple.getValueNode(), ctx);
        if (keyFallback != null && keyTuple == null) {
          problem(fallbackTuple.getKeyNode(), ctx + "key-fallback needs a key to fall back from;"
              + " add key: (for example key: header:X-Api-Key)");
          keyFallback = null;
        }
      }

      AlgorithmKind algorithm = AlgorithmKind.TOKEN_BUCKET;
      NodeTuple algTuple = f.get("algorithm");
      if (algTuple != null) {
        AlgorithmKind a = algorithm(algTuple.getValueNode(), ctx);
        if (a != null) {
          algorithm = a;
        }
      }

      NodeTuple limitTuple = f.get("limit");
      NodeTuple periodTuple = f.get("period");
      NodeTuple burstTuple = f.get("burst");
      NodeTuple limitsTuple = f.get("limits");
      NodeTuple plansTuple = f.get("plans");
      NodeTuple calendarTuple = f.get("calendar");

      // calendar quotas: the calendar sets the window
      CalendarQuota.Unit calendar = null;
      java.time.ZoneId zone = null;
      if (calendarTuple != null) {
        String unit = string(calendarTuple.getValueNode(), "calendar", "one of " + String.join(", ", CALENDAR_UNITS), ctx);
        if (unit != null) {
          String u = unit.trim().toLowerCase(Locale.ROOT);
          if (CALENDAR_UNITS.contains(u)) {
            calendar = CalendarQuota.Unit.valueOf(u.toUpperCase(Locale.ROOT));
          } else {
            String hint = suggest(u, CALENDAR_UNITS);
            problem(
                calendarTuple.getValueNode(),
                ctx + "calendar must be one of " + String.join(", ", CALENDAR_UNITS) + ", got "
                    + describe(calendarTuple.getValueNode())
                    + (hint != null ? "; did you mean '" + hint + "'?" : ""));
          }
        }
        if (algTuple != null && algorithm != AlgorithmKind.FIXED_WINDOW) {
          problem(
              algTuple.getValueNode(),
              ctx + "a calendar quota is a fixed window on calendar boundaries; write 'algorithm: fixed-window' or leave algorithm out");
        }
        algorithm = AlgorithmKind.FIXED_WINDOW;
        if (periodTuple != null) {
          problem(
              periodTuple.getKeyNode(),
              ctx + "with 'calendar' the window is the calendar " + (calendar == null ? "unit" : unit.trim())
                  + "; leave 'period' out");
        }
        if (burstTuple != null) {
          problem(burstTuple.getKeyNode(), ctx + "burst applies to token-bucket and gcra only, not to a calendar quota");
        }
        if (limitsTuple != null || plansTuple != null) {
          problem(
              (limitsTuple != null ? limitsTuple : plansTuple).getKeyNode(),
              ctx + "a calendar quota takes one 'limit'; '" + (limitsTuple != null ? "limits" : "plans")
                  + "' cannot be combined with 'calendar'");
        }
      }
      NodeTuple zoneTuple = f.get("time-zone");
      if (zoneTuple != null) {
        String z = string(zoneTuple.getValueNode(), "time-zone", "a time zone such as Europe/Paris or UTC", ctx);
        if (calendarTuple == null) {
          problem(zoneTuple.getKeyNode(), ctx + "time-zone applies to calendar quotas only; add 'calendar: day' (or week, month, year) or remove it");
        } else if (z != null) {
          try {
            zone = java.time.ZoneId.of(z.trim());
          } catch (java.time.DateTimeException e) {
            problem(
                zoneTuple.getValueNode(),
                ctx + "time-zone '" + z.trim() + "' is not a time zone; write a region such as Europe/Paris, America/New_York, or UTC");
          }
        }
      }

      Long limit = null;
      Long period = null;
      Long burst = null;
      List<LimitConfig> limits = null;
      PlansConfig plans = null;
      if (plansTuple != null || limitsTuple != null) {
        NodeTuple other = limitTuple != null ? limitTuple : periodTuple != null ? periodTuple : burstTuple;
        String which = plansTuple != null ? "plans" : "limits";
        if (plansTuple != null && limitsTuple != null) {
          problem(limitsTuple.getKeyNode(), ctx + "give either 'limits' or 'plans' (each plan has its own limits), not both");
        } else if (other != null && calendarTuple == null) {
          problem(
              other.getKeyNode(),
              ctx + "give either '" + which + "' or limit/period/burst, not both; move '"
                  + ((ScalarNode) other.getKeyNode()).getValue() + "' into " + which);
        }
        if (plansTuple != null) {
          plans = plans(plansTuple.getValueNode(), ctx);
        } else {
          limits = limitList(limitsTuple.getValueNode(), "limits", ctx);
          if (limits != null && algorithm == AlgorithmKind.CONCURRENCY && limits.size() > 1) {
            problem(limitsTuple.getKeyNode(), ctx + "the concurrency algorithm takes one limit (requests in progress at once); use 'limit'");
          }
        }
      } else {
        if (limitTuple == null) {
          if (!misspelt(map, RULE_KEYS, "limits", "plans")) {
            problem(
                item,
                ctx + "limit is missing; give the number of requests allowed per period, for example 'limit: 100'");
          }
        } else {
          limit = positive(limitTuple.getValueNode(), "limit", ctx);
        }
        if (calendarTuple != null) {
          period = calendar == null ? null : 1L; // set by the calendar unit below
        } else if (periodTuple == null) {
          if (!misspelt(map, RULE_KEYS, "limits", "plans", "calendar")) {
            problem(
                item,
                ctx + "period is missing; give the length of the limit's time window, for example 'period: 1m'");
          }
        } else {
          period = duration(periodTuple.getValueNode(), "period", ctx);
        }
        if (burstTuple != null) {
          burst = positive(burstTuple.getValueNode(), "burst", ctx);
          if (algorithm != AlgorithmKind.TOKEN_BUCKET && algorithm != AlgorithmKind.GCRA) {
            problem(
                burstTuple.getKeyNode(),
                ctx + "burst applies to token-bucket and gcra only (" + algorithm.yamlName()
                    + " allows at most 'limit' in a window); remove it, or use one of them");
          }
        }
        if (limit != null && period != null) {
          limits = Collections.singletonList(new LimitConfig(limit, period, burst == null ? 0 : burst));
        }
      }
      CostConfig cost = CostConfig.ONE;
      NodeTuple costTuple = f.get("cost");
      if (costTuple != null) {
        CostConfig c = cost(costTuple.getValueNode(), ctx);
        if (c != null) {
          cost = c;
        }
      }
      OnFailure onFailure = enumValue(f.get("on-failure"), "on-failure", OnFailure.values(), ctx);
      Mode mode = enumValue(f.get("mode"), "mode", Mode.values(), ctx);
      Boolean quotaHeaders = null;
      NodeTuple qh = f.get("quota-headers");
      if (qh != null) {
        quotaHeaders = bool(qh.getValueNode(), "quota-headers", ctx);
      }
      Long maxKeys = null;
      NodeTuple mk = f.get("max-keys");
      if (mk != null) {
        maxKeys = positive(mk.getValueNode(), "max-keys", ctx);
      }
      long maxDelay = 0;
      NodeTuple md = f.get("max-delay");
      if (md != null) {
        Long d = duration(md.getValueNode(), "max-delay", ctx);
        if (algorithm != AlgorithmKind.GCRA) {
          problem(
              md.getKeyNode(),
              ctx + "max-delay applies to the gcra algorithm only (it holds requests to pace them); add 'algorithm: gcra' or remove it");
        } else if (d != null && d > MAX_DELAY_CAP_NANOS) {
          problem(
              md.getValueNode(),
              ctx + "max-delay must be at most 10s: a held request keeps a server thread busy, so longer waits should be refused with Retry-After instead");
        } else if (d != null) {
          maxDelay = d;
        }
      }
      String costHeader = null;
      NodeTuple ch = f.get("cost-header");
      if (ch != null) {
        costHeader = string(ch.getValueNode(), "cost-header", "a response header name such as X-Tollgate-Cost", ctx);
        if (costHeader != null && !isToken(costHeader.trim())) {
          problem(ch.getValueNode(), ctx + "cost-header '" + costHeader + "' is not a valid header name");
          costHeader = null;
        } else if (costHeader != null && algorithm == AlgorithmKind.CONCURRENCY) {
          problem(ch.getKeyNode(), ctx + "cost-header does not apply to the concurrency algorithm, whose units are given back when the request ends");
          costHeader = null;
        } else if (costHeader != null) {
          costHeader = costHeader.trim();
        }
      }
      AllowConfig allow = AllowConfig.NONE;
      NodeTuple allowTuple = f.get("allow");
      if (allowTuple != null) {
        AllowConfig a = allow(allowTuple.getValueNode(), ctx, true);
        if (a != null) {
          allow = a;
          if (!a.keys().isEmpty()) {
            boolean oneNamedPart =
                key.size() == 1
                    && (key.get(0).startsWith("header:") || key.get(0).startsWith("cookie:")
                        || key.get(0).startsWith("param:") || key.get(0).equals("principal"));
            if (!oneNamedPart) {
              problem(
                  allowTuple.getValueNode(),
                  ctx + "allow.keys needs a rule keyed by one header:, cookie:, param: or principal part (the rule's key is "
                      + key + "); allow client addresses with allow.cidrs");
            }
          }
        }
      }
      allow = allow.plus(topAllow);
      PenaltyConfig penalty = null;
      NodeTuple penaltyTuple = f.get("penalty");
      if (penaltyTuple != null) {
        penalty = penalty(penaltyTuple.getValueNode(), ctx);
        if (algorithm == AlgorithmKind.CONCURRENCY && penalty != null) {
          problem(penaltyTuple.getKeyNode(), ctx + "penalty does not apply to the concurrency algorithm");
          penalty = null;
        }
      }

      // Cross-checks: a request that costs more than the bucket (or window) holds can never pass.
      List<LimitConfig> allLimits = new ArrayList<>();
      if (limits != null) {
        allLimits.addAll(limits);
      }
      if (plans != null) {
        for (List<LimitConfig> l : plans.limits().values()) {
          allLimits.addAll(l);
        }
      }
      if (algorithm != AlgorithmKind.CONCURRENCY && costTuple != null) {
        boolean bucket = algorithm == AlgorithmKind.TOKEN_BUCKET || algorithm == AlgorithmKind.GCRA;
        for (LimitConfig l : allLimits) {
          boolean burstGiven = l.burst() != l.limit();
          long capacity = bucket && burstGiven ? l.burst() : l.limit();
          String capacityName = bucket && burstGiven ? "burst" : "limit";
          if (cost.maxCost() > capacity) {
            problem(
                costTuple.getValueNode(),
                ctx + "a cost of " + cost.maxCost() + " is more than the rule's " + capacityName + " of "
                    + capacity + ", so such requests would always be refused; lower the cost or raise the "
                    + capacityName);
            break;
          }
        }
      }
      if (limits != null || plans != null) {
        limit = limit == null ? 1L : limit;
        period = period == null ? 1L : period;
      }

      if (problems.size() > before || name == null || limit == null || period == null) {
        return null;
      }
      RuleConfig.Builder b =
          RuleConfig.builder(name)
              .line(line(item))
              .paths(paths)
              .methods(methods)
              .route(route)
              .key(key)
              .keyFallback(keyFallback)
              .algorithm(algorithm)
              .limit(limit)
              .periodNanos(period)
              .cost(cost)
              .onFailure(onFailure)
              .mode(mode)
              .quotaHeaders(quotaHeaders)
              .maxDelayNanos(maxDelay)
              .costHeader(costHeader)
              .allow(allow)
              .penalty(penalty);
      if (calendar != null) {
        b.periodNanos(0).calendar(calendar, zone);
      }
      if (plans != null) {
        b.plans(plans);
      } else if (limitsTuple != null) {
        b.limits(limits);
      }
      if (burst != null) {
        b.burst(burst);
      }
      if (maxKeys != null) {
        b.maxKeys(maxKeys);
      }
      for (Map.Entry<String, Integer> e : keyLines.entrySet()) {
        b.keyLine(e.getKey(), e.getValue());
      }
      return b.build();
    }

    /** A limit ({@code {limit: 10, period: 1s}}) or a list of them. */
    private List<LimitConfig> limitList(Node node, String what, String ctx) {
      List<Node> items;
      if (node instanceof SequenceNode) {
        items = ((SequenceNode) node).getValue();
        if (items.isEmpty()) {
          problem(node, ctx + what + " is an empty list; give at least one {limit: N, period: D}");
          return null;
        }
      } else if (node instanceof MappingNode) {
        items = Collections.singletonList(node);
      } else {
        problem(node, ctx + what + " must be a list of limits such as [{limit: 10, period: 1s}, {limit: 1000, period: 1h}], got " + describe(node));
        return null;
      }
      List<LimitConfig> out = new ArrayList<>();
      Map<Long, Node> periods = new HashMap<>();
      boolean ok = true;
      for (Node itemNode : items) {
        if (!(itemNode instanceof MappingNode)) {
          problem(itemNode, ctx + "each entry of " + what + " must be a mapping such as {limit: 10, period: 1s}, got " + describe(itemNode));
          ok = false;
          continue;
        }
        Map<String, NodeTuple> lf = fields((MappingNode) itemNode, LIMIT_KEYS, "in " + what + " of " + ctx.substring(0, ctx.length() - 2), what + ".");
        Long l = null;
        Long p = null;
        Long b = null;
        if (lf.get("limit") == null) {
          if (!misspelt((MappingNode) itemNode, LIMIT_KEYS, "limit")) {
            problem(itemNode, ctx + "an entry of " + what + " has no limit; write {limit: N, period: D}");
          }
        } else {
          l = positive(lf.get("limit").getValueNode(), what + " limit", ctx);
        }
        if (lf.get("period") == null) {
          if (!misspelt((MappingNode) itemNode, LIMIT_KEYS, "period")) {
            problem(itemNode, ctx + "an entry of " + what + " has no period; write {limit: N, period: D}");
          }
        } else {
          p = duration(lf.get("period").getValueNode(), what + " period", ctx);
        }
        if (lf.get("burst") != null) {
          b = positive(lf.get("burst").getValueNode(), what + " burst", ctx);
        }
        if (l == null || p == null) {
          ok = false;
          continue;
        }
        Node first = periods.put(p, itemNode);
        if (first != null) {
          problem(
              itemNode,
              ctx + "two entries of " + what + " have the period " + Durations.format(p)
                  + " (the first on line " + line(first) + "); keep one limit per period");
          ok = false;
          continue;
        }
        out.add(new LimitConfig(l, p, b == null ? 0 : b));
      }
      return ok ? out : null;
    }

    private PlansConfig plans(Node node, String ctx) {
      String example = "a mapping such as { header: X-Plan, default: free, limits: { free: {limit: 10, period: 1m}, pro: {limit: 1000, period: 1m} } }";
      if (!(node instanceof MappingNode)) {
        problem(node, ctx + "plans must be " + example + ", got " + describe(node));
        return null;
      }
      Map<String, NodeTuple> pf = fields((MappingNode) node, PLANS_KEYS, "in plans of " + ctx.substring(0, ctx.length() - 2), "plans.");
      boolean ok = true;
      String header = null;
      if (pf.get("header") == null) {
        if (!misspelt((MappingNode) node, PLANS_KEYS, "header")) {
          problem(node, ctx + "plans needs 'header:', the request header that names the plan, such as X-Plan");
        }
        ok = false;
      } else {
        header = string(pf.get("header").getValueNode(), "plans.header", "a request header name such as X-Plan", ctx);
        if (header != null && !isToken(header.trim())) {
          problem(pf.get("header").getValueNode(), ctx + "plans.header '" + header + "' is not a valid header name");
          header = null;
        }
        ok &= header != null;
      }
      Map<String, List<LimitConfig>> byPlan = new LinkedHashMap<>();
      NodeTuple lt = pf.get("limits");
      if (lt == null) {
        problem(node, ctx + "plans needs 'limits:', the limits of each plan, such as { free: {limit: 10, period: 1m} }");
        ok = false;
      } else if (!(lt.getValueNode() instanceof MappingNode)) {
        problem(lt.getValueNode(), ctx + "plans.limits must map each plan name to its limits, such as { free: {limit: 10, period: 1m} }, got " + describe(lt.getValueNode()));
        ok = false;
      } else {
        for (NodeTuple t : ((MappingNode) lt.getValueNode()).getValue()) {
          Node k = t.getKeyNode();
          String plan = k instanceof ScalarNode ? ((ScalarNode) k).getValue().trim() : null;
          if (plan == null || !RULE_NAME.matcher(plan).matches()) {
            problem(k, ctx + "plan names use only letters, digits, '.', '_' and '-', got " + describe(k));
            ok = false;
            continue;
          }
          boolean duplicate = false;
          for (String p : byPlan.keySet()) {
            duplicate |= p.equalsIgnoreCase(plan);
          }
          if (duplicate) {
            problem(k, ctx + "plan '" + plan + "' is given twice (plan names are matched in any case)");
            ok = false;
            continue;
          }
          List<LimitConfig> l = limitList(t.getValueNode(), "plan '" + plan + "'", ctx);
          if (l == null) {
            ok = false;
          } else {
            byPlan.put(plan, l);
          }
        }
        if (byPlan.isEmpty() && ok) {
          problem(lt.getValueNode(), ctx + "plans.limits names no plan");
          ok = false;
        }
      }
      String def = null;
      if (pf.get("default") == null) {
        problem(node, ctx + "plans needs 'default:', the plan of requests whose header names no plan");
        ok = false;
      } else {
        def = string(pf.get("default").getValueNode(), "plans.default", "the name of a plan", ctx);
        if (def != null && ok) {
          String found = null;
          for (String p : byPlan.keySet()) {
            if (p.equalsIgnoreCase(def.trim())) {
              found = p;
            }
          }
          if (found == null) {
            String hint = suggest(def.trim(), new ArrayList<>(byPlan.keySet()));
            problem(
                pf.get("default").getValueNode(),
                ctx + "plans.default '" + def.trim() + "' is not one of the plans (" + String.join(", ", byPlan.keySet()) + ")"
                    + (hint != null ? "; did you mean '" + hint + "'?" : ""));
            ok = false;
          }
          def = found;
        }
        ok &= def != null;
      }
      return ok ? new PlansConfig(header.trim(), def, byPlan) : null;
    }

    private AllowConfig allow(Node node, String ctx, boolean keysAllowed) {
      String where = ctx.isEmpty() ? "allow" : "allow of " + ctx.substring(0, ctx.length() - 2);
      if (!(node instanceof MappingNode)) {
        problem(node, ctx + "allow must be a mapping such as { cidrs: [10.0.0.0/8] }, got " + describe(node));
        return null;
      }
      Map<String, NodeTuple> af = fields((MappingNode) node, ALLOW_KEYS, "in " + where, "allow.");
      List<String> cidrs = new ArrayList<>();
      List<String> keys = new ArrayList<>();
      boolean ok = true;
      NodeTuple ct = af.get("cidrs");
      if (ct != null) {
        for (Node itemNode : listItems(ct.getValueNode(), "allow.cidrs", "a list of networks such as [10.0.0.0/8, 2001:db8::/32]", ctx)) {
          String c = string(itemNode, "each entry of allow.cidrs", "a CIDR such as 10.0.0.0/8", ctx);
          if (c == null) {
            ok = false;
          } else if (cidrProblem(c.trim()) != null) {
            problem(itemNode, ctx + "allow.cidrs: '" + c + "' is not an IP address or CIDR such as 10.0.0.0/8 or fd00::/8 (" + cidrProblem(c.trim()) + ")");
            ok = false;
          } else {
            cidrs.add(c.trim());
          }
        }
      }
      NodeTuple kt = af.get("keys");
      if (kt != null) {
        if (!keysAllowed) {
          problem(kt.getKeyNode(), "allow.keys at the top level would apply to every rule's key; give it in a rule's 'allow:' instead");
          ok = false;
        } else {
          for (Node itemNode : listItems(kt.getValueNode(), "allow.keys", "a list of key values such as [partner-key-1]", ctx)) {
            String k = string(itemNode, "each entry of allow.keys", "a key value", ctx);
            if (k == null) {
              ok = false;
            } else {
              keys.add(k);
            }
          }
        }
      }
      return ok ? new AllowConfig(cidrs, keys) : null;
    }

    private List<Node> listItems(Node node, String what, String expected, String ctx) {
      if (node instanceof SequenceNode) {
        return ((SequenceNode) node).getValue();
      }
      if (node instanceof ScalarNode && !isNull(node)) {
        return Collections.singletonList(node);
      }
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
      return Collections.emptyList();
    }

    private PenaltyConfig penalty(Node node, String ctx) {
      String example = "a mapping such as { after: 5, within: 1m, box-for: 15m }";
      if (!(node instanceof MappingNode)) {
        problem(node, ctx + "penalty must be " + example + ", got " + describe(node));
        return null;
      }
      Map<String, NodeTuple> pf = fields((MappingNode) node, PENALTY_KEYS, "in penalty of " + ctx.substring(0, ctx.length() - 2), "penalty.");
      Long after = null;
      Long within = null;
      Long boxFor = null;
      for (String k : PENALTY_KEYS) {
        if (pf.get(k) == null && !misspelt((MappingNode) node, PENALTY_KEYS, k)) {
          problem(node, ctx + "penalty needs '" + k + "'; write " + example);
        }
      }
      if (pf.get("after") != null) {
        after = integer(pf.get("after").getValueNode(), "penalty.after", "a number of refusals from 1 to " + io.tollgate.limiters.PenaltyBox.MAX_REFUSALS, 1, io.tollgate.limiters.PenaltyBox.MAX_REFUSALS, ctx);
      }
      if (pf.get("within") != null) {
        within = duration(pf.get("within").getValueNode(), "penalty.within", ctx);
      }
      if (pf.get("box-for") != null) {
        boxFor = duration(pf.get("box-for").getValueNode(), "penalty.box-for", ctx);
      }
      return after == null || within == null || boxFor == null
          ? null
          : new PenaltyConfig(after.intValue(), within, boxFor);
    }

    /**
     * Whether the mapping has an unknown key that the hints take for one of {@code targets}: the
     * unknown key is reported already, and "X is missing" would only repeat it.
     */
    private boolean misspelt(MappingNode map, List<String> known, String... targets) {
      for (NodeTuple t : map.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode) {
          String k = ((ScalarNode) t.getKeyNode()).getValue();
          if (!known.contains(k) && Arrays.asList(targets).contains(suggest(k, known))) {
            return true;
          }
        }
      }
      return false;
    }

    private List<String> paths(Node node, String ctx) {
      List<String> out = new ArrayList<>();
      List<Node> items;
      if (node instanceof SequenceNode) {
        items = ((SequenceNode) node).getValue();
        if (items.isEmpty()) {
          problem(node, ctx + "match.path is an empty list; leave 'path' out to match every path");
        }
      } else {
        items = Collections.singletonList(node);
      }
      for (Node item : items) {
        String p = string(item, "match.path", "a path glob starting with '/', such as /api/** (or a list of them)", ctx);
        if (p == null) {
          continue;
        }
        if (!p.startsWith("/")) {
          problem(item, ctx + "match.path '" + p + "' must start with '/', for example '/" + p + "'");
        } else if (p.indexOf('?') >= 0 && p.indexOf('=') > p.indexOf('?')) {
          problem(item, ctx + "match.path '" + p + "' looks like it has a query string; paths match without it");
        } else {
          out.add(p);
        }
      }
      return out;
    }

    private Set<String> methods(Node node, String ctx) {
      Set<String> out = new LinkedHashSet<>();
      List<Node> items;
      if (node instanceof SequenceNode) {
        items = ((SequenceNode) node).getValue();
      } else if (node instanceof ScalarNode && !isNull(node)) {
        items = Collections.singletonList(node);
      } else {
        problem(node, ctx + "match.methods must be a list of HTTP methods such as [GET, POST], got " + describe(node));
        return out;
      }
      for (Node item : items) {
        String m = string(item, "each entry of match.methods", "an HTTP method such as GET", ctx);
        if (m == null) {
          continue;
        }
        String upper = m.toUpperCase(Locale.ROOT);
        if (HTTP_METHODS.contains(upper)) {
          out.add(upper);
        } else {
          String hint = suggest(upper.toLowerCase(Locale.ROOT), lower(HTTP_METHODS));
          problem(
              item,
              ctx + "'" + m + "' is not an HTTP method"
                  + (hint != null ? "; did you mean '" + hint.toUpperCase(Locale.ROOT) + "'?" : "")
                  + " (allowed: " + String.join(", ", HTTP_METHODS) + ")");
        }
      }
      return out;
    }

    private List<String> keyParts(Node node, String ctx) {
      List<Node> items;
      if (node instanceof SequenceNode) {
        items = ((SequenceNode) node).getValue();
        if (items.isEmpty()) {
          problem(node, ctx + "key is an empty list; name at least one part such as ip, or leave 'key' out for ip");
          return null;
        }
      } else {
        items = Collections.singletonList(node);
      }
      List<String> out = new ArrayList<>();
      boolean ok = true;
      String allowed = "ip, global, principal, route, header:NAME, param:NAME, cookie:NAME";
      for (Node item : items) {
        String raw = string(item, "key", "one of " + allowed + " (or a list of them)", ctx);
        if (raw == null) {
          ok = false;
          continue;
        }
        String part = raw.trim();
        int colon = part.indexOf(':');
        String type = (colon < 0 ? part : part.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
        String name = colon < 0 ? null : part.substring(colon + 1).trim();
        String normalized = null;
        if (KEY_PARTS_SIMPLE.contains(type)) {
          if (name != null) {
            problem(item, ctx + "key part '" + type + "' takes no name, got '" + raw + "'");
          } else {
            normalized = type;
          }
        } else if (KEY_PARTS_NAMED.contains(type)) {
          if (name == null || name.isEmpty()) {
            problem(
                item,
                ctx + "key part '" + raw + "' needs a name after the colon, for example '"
                    + type + ":" + (type.equals("header") ? "X-Api-Key" : type.equals("param") ? "username" : "session") + "'");
          } else if (!isToken(name)) {
            problem(
                item,
                ctx + "key part '" + raw + "': '" + name
                    + "' is not a valid " + type + " name (no spaces or separators such as ()<>@,;:\\\"/[]?={})");
          } else {
            normalized = type + ":" + name;
          }
        } else {
          List<String> all = new ArrayList<>(KEY_PARTS_SIMPLE);
          all.addAll(KEY_PARTS_NAMED);
          String hint = suggest(type, all);
          problem(
              item,
              ctx + "unknown key part '" + raw + "'"
                  + (hint != null ? "; did you mean '" + (KEY_PARTS_NAMED.contains(hint) ? hint + ":NAME" : hint) + "'?" : "")
                  + " (allowed: " + allowed + ")");
        }
        if (normalized == null) {
          ok = false;
        } else if (out.contains(normalized)) {
          problem(item, ctx + "key part '" + normalized + "' is listed twice");
          ok = false;
        } else {
          out.add(normalized);
        }
      }
      if (ok && out.contains("global") && out.size() > 1) {
        problem(node, ctx + "key part 'global' means one shared limit for everyone and cannot be combined with other parts");
        ok = false;
      }
      return ok ? out : null;
    }

    private AlgorithmKind algorithm(Node node, String ctx) {
      List<String> names = new ArrayList<>();
      for (AlgorithmKind k : AlgorithmKind.values()) {
        names.add(k.yamlName());
      }
      String v = node instanceof ScalarNode && !isNull(node) ? ((ScalarNode) node).getValue() : null;
      AlgorithmKind kind = v == null ? null : AlgorithmKind.fromYamlName(v.trim());
      if (kind == null) {
        String hint = v == null ? null : suggest(v, names);
        problem(
            node,
            ctx + "unknown algorithm " + describe(node)
                + (hint != null ? "; did you mean '" + hint + "'?" : "")
                + " (allowed: " + String.join(", ", names) + ")");
      }
      return kind;
    }

    private CostConfig cost(Node node, String ctx) {
      String expected = "a positive integer, or a mapping such as { default: 1, /api/search: 5 }";
      if (node instanceof ScalarNode && !isNull(node)) {
        Long n = integer(node, "cost", expected, 1, Long.MAX_VALUE, ctx);
        return n == null ? null : new CostConfig(n, Collections.<String, Long>emptyMap());
      }
      if (!(node instanceof MappingNode)) {
        problem(node, ctx + "cost must be " + expected + ", got " + describe(node));
        return null;
      }
      long def = 1;
      Map<String, Long> byPath = new LinkedHashMap<>();
      Map<String, Node> seen = new HashMap<>();
      boolean ok = true;
      for (NodeTuple t : ((MappingNode) node).getValue()) {
        Node k = t.getKeyNode();
        if (!(k instanceof ScalarNode)) {
          problem(k, ctx + "cost keys must be 'default' or a path glob, got " + describe(k));
          ok = false;
          continue;
        }
        String glob = ((ScalarNode) k).getValue();
        Node first = seen.get(glob);
        if (first != null) {
          problem(k, ctx + "duplicate key '" + glob + "' in cost (first given on line " + line(first) + ")");
          ok = false;
          continue;
        }
        seen.put(glob, k);
        Long n = integer(t.getValueNode(), "cost for '" + glob + "'", "a positive integer", 1, Long.MAX_VALUE, ctx);
        if (n == null) {
          ok = false;
        } else if (glob.equals("default")) {
          def = n;
        } else if (glob.startsWith("/")) {
          byPath.put(glob, n);
        } else {
          problem(
              k,
              ctx + "cost keys must be 'default' or a path glob starting with '/', got '" + glob + "'");
          ok = false;
        }
      }
      return ok ? new CostConfig(def, byPath) : null;
    }

    // --- mappings ---------------------------------------------------------------------------

    /** Finds a key without reporting anything: the first explicit occurrence, else a merged one. */
    private NodeTuple findKey(MappingNode map, String key) {
      List<NodeTuple> merged = new ArrayList<>();
      for (NodeTuple t : map.getValue()) {
        if (t.getKeyNode().getTag().equals(Tag.MERGE)) {
          Node v = t.getValueNode();
          if (v instanceof MappingNode) {
            merged.addAll(((MappingNode) v).getValue());
          } else if (v instanceof SequenceNode) {
            for (Node n : ((SequenceNode) v).getValue()) {
              if (n instanceof MappingNode) {
                merged.addAll(((MappingNode) n).getValue());
              }
            }
          }
        } else if (t.getKeyNode() instanceof ScalarNode
            && key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
          return t;
        }
      }
      for (NodeTuple t : merged) {
        if (t.getKeyNode() instanceof ScalarNode && key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
          return t;
        }
      }
      return null;
    }

    /**
     * The known keys of a mapping (first occurrence of each), reporting non-scalar, duplicate and
     * unknown keys. Merge keys ({@code <<: *anchor}) supply keys not written explicitly.
     */
    private Map<String, NodeTuple> fields(MappingNode map, List<String> known, String where, String prefix) {
      Map<String, NodeTuple> out = new LinkedHashMap<>();
      List<NodeTuple> merged = new ArrayList<>();
      for (NodeTuple t : map.getValue()) {
        Node k = t.getKeyNode();
        if (k.getTag().equals(Tag.MERGE)) {
          collectMerge(t.getValueNode(), merged);
          continue;
        }
        if (!(k instanceof ScalarNode) || isNull(k)) {
          problem(k, "keys must be plain words such as 'limit', got " + describe(k) + " " + where);
          continue;
        }
        String key = ((ScalarNode) k).getValue();
        NodeTuple first = out.get(key);
        if (first != null) {
          problem(
              k,
              "duplicate key '" + prefix + key + "' " + where + " (first given on line "
                  + line(first.getKeyNode()) + "); give each key once");
          continue;
        }
        if (!known.contains(key)) {
          if (out.containsKey("\0" + key)) {
            continue; // the same unknown key again: reported once
          }
          out.put("\0" + key, t);
          problem(k, unknownKey(key, known, where));
          continue;
        }
        out.put(key, t);
      }
      for (NodeTuple t : merged) {
        Node k = t.getKeyNode();
        if (k instanceof ScalarNode && known.contains(((ScalarNode) k).getValue())) {
          out.putIfAbsent(((ScalarNode) k).getValue(), t);
        }
      }
      out.keySet().removeIf(s -> s.startsWith("\0"));
      return out;
    }

    private void collectMerge(Node value, List<NodeTuple> into) {
      if (value instanceof MappingNode) {
        into.addAll(((MappingNode) value).getValue());
      } else if (value instanceof SequenceNode) {
        for (Node n : ((SequenceNode) value).getValue()) {
          if (n instanceof MappingNode) {
            into.addAll(((MappingNode) n).getValue());
          } else {
            problem(n, "'<<' merges mappings only, got " + describe(n));
          }
        }
      } else {
        problem(value, "'<<' merges mappings only, got " + describe(value));
      }
    }

    private String unknownKey(String key, List<String> known, String where) {
      StringBuilder sb = new StringBuilder("unknown key '").append(key).append("' ").append(where);
      String hint = suggest(key, known);
      if (hint != null) {
        sb.append("; did you mean '").append(hint).append("'?");
      } else if (known == TOP_LEVEL_KEYS && (RULE_KEYS.contains(key) || MATCH_KEYS.contains(key))) {
        sb.append("; '").append(key).append("' belongs inside a rule, under 'rules:'");
      } else if (known == RULE_KEYS && MATCH_KEYS.contains(key)) {
        sb.append("; '").append(key).append("' belongs under 'match:'");
      } else {
        sb.append(" (allowed: ").append(String.join(", ", known)).append(")");
      }
      return sb.toString();
    }

    private void recordLines(Map<String, NodeTuple> fields, String prefix, Map<String, Integer> lines) {
      for (Map.Entry<String, NodeTuple> e : fields.entrySet()) {
        lines.put(prefix + e.getKey(), line(e.getValue().getKeyNode()));
      }
    }

    // --- scalars ----------------------------------------------------------------------------

    private String string(Node node, String what, String expected, String ctx) {
      if (node instanceof ScalarNode && !isNull(node)) {
        String v = ((ScalarNode) node).getValue();
        if (!v.trim().isEmpty()) {
          return v;
        }
      }
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
      return null;
    }

    private Long positive(Node node, String what, String ctx) {
      return integer(node, what, "a positive integer", 1, Long.MAX_VALUE, ctx);
    }

    private Long integer(Node node, String what, String expected, long min, long max, String ctx) {
      if (!(node instanceof ScalarNode) || isNull(node)) {
        problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
        return null;
      }
      String v = ((ScalarNode) node).getValue().trim();
      if (!INTEGER.matcher(v).matches()) {
        problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
        return null;
      }
      BigInteger n = new BigInteger(v.replace("_", "").replace("+", ""));
      if (n.compareTo(BigInteger.valueOf(min)) < 0) {
        problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
        return null;
      }
      if (n.compareTo(LONG_MAX) > 0 || n.longValue() > max) {
        problem(node, ctx + what + " must be " + expected + ", got " + describe(node) + ", which is too large");
        return null;
      }
      return n.longValue();
    }

    private Boolean bool(Node node, String what, String ctx) {
      if (node instanceof ScalarNode && !isNull(node)) {
        String v = ((ScalarNode) node).getValue().trim();
        if (v.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (v.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
      }
      problem(node, ctx + what + " must be true or false, got " + describe(node));
      return null;
    }

    private Long duration(Node node, String what, String ctx) {
      if (node instanceof ScalarNode && !isNull(node)) {
        String v = ((ScalarNode) node).getValue();
        try {
          long nanos = Durations.parseNanos(v);
          if (nanos > 0) {
            return nanos;
          }
          problem(node, ctx + what + " must be longer than zero, got '" + v + "'");
          return null;
        } catch (IllegalArgumentException e) {
          if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
            problem(node, ctx + what + " '" + v.trim() + "' is too long; write a shorter duration such as 1d");
            return null;
          }
          String why = v.trim().chars().allMatch(Character::isDigit) ? " (the unit is missing)" : "";
          problem(
              node,
              ctx + what + " must be a duration, got '" + v + "'" + why + "; write "
                  + Durations.ACCEPTED_FORMS);
          return null;
        }
      }
      problem(node, ctx + what + " must be a duration such as 500ms, 10s, 1m, 1h or 1d, got " + describe(node));
      return null;
    }

    private <E extends Enum<E>> E enumValue(NodeTuple tuple, String what, E[] values, String ctx) {
      if (tuple == null) {
        return null;
      }
      Node node = tuple.getValueNode();
      List<String> names = new ArrayList<>();
      for (E e : values) {
        names.add(e.name().toLowerCase(Locale.ROOT));
      }
      if (node instanceof ScalarNode && !isNull(node)) {
        String v = ((ScalarNode) node).getValue().trim().toLowerCase(Locale.ROOT);
        for (E e : values) {
          if (e.name().toLowerCase(Locale.ROOT).equals(v)) {
            return e;
          }
        }
        String hint = suggest(v, names);
        problem(
            node,
            ctx + what + " must be one of " + String.join(", ", names) + ", got " + describe(node)
                + (hint != null ? "; did you mean '" + hint + "'?" : ""));
        return null;
      }
      problem(node, ctx + what + " must be one of " + String.join(", ", names) + ", got " + describe(node));
      return null;
    }

    private String expand(String raw, Node node, String what) {
      StringBuilder out = new StringBuilder();
      int i = 0;
      boolean ok = true;
      while (i < raw.length()) {
        int start = raw.indexOf("${", i);
        if (start < 0) {
          out.append(raw, i, raw.length());
          break;
        }
        out.append(raw, i, start);
        int end = raw.indexOf('}', start + 2);
        if (end < 0) {
          problem(node, what + ": '${' is not closed by '}'; write ${NAME} to use an environment variable");
          return null;
        }
        String inner = raw.substring(start + 2, end);
        String fallback = null;
        int sep = inner.indexOf(":-");
        String name = sep < 0 ? inner : inner.substring(0, sep);
        if (sep >= 0) {
          fallback = inner.substring(sep + 2);
        }
        if (!ENV_NAME.matcher(name).matches()) {
          problem(node, what + ": '${" + inner + "}' is not a valid environment variable reference; write ${NAME} or ${NAME:-default}");
          ok = false;
        } else {
          String value = env.apply(name);
          if (value == null || (value.isEmpty() && fallback != null)) {
            value = fallback;
          }
          if (value == null) {
            problem(node, what + " uses environment variable " + name + ", which is not set");
            ok = false;
          } else {
            out.append(value);
          }
        }
        i = end + 1;
      }
      return ok ? out.toString() : null;
    }

    private static boolean hasScheme(String uri, String... schemes) {
      String lower = uri.trim().toLowerCase(Locale.ROOT);
      for (String s : schemes) {
        if (lower.startsWith(s) && lower.length() > s.length()) {
          return true;
        }
      }
      return false;
    }

    // --- problems ---------------------------------------------------------------------------

    private void syntaxProblem(MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      StringBuilder sb = new StringBuilder("invalid YAML: ");
      String problem = e.getProblem() == null ? "" : e.getProblem().trim();
      if (problem.startsWith("but found another document")) {
        problems.add(
            new ConfigProblem(
                source,
                mark == null ? 0 : mark.getLine() + 1,
                mark == null ? 0 : mark.getColumn() + 1,
                "invalid YAML: a second document starts here ('---'); a rules file holds one document"));
        return;
      }
      if (problem.contains("\\t") || problem.contains("\t")) {
        problems.add(
            new ConfigProblem(
                source,
                mark == null ? 0 : mark.getLine() + 1,
                mark == null ? 0 : mark.getColumn() + 1,
                "invalid YAML: a tab character here; YAML does not allow tabs for indentation, use spaces"));
        return;
      }
      sb.append(problem);
      if (e.getContext() != null) {
        sb.append(" (").append(e.getContext().trim());
        if (e.getContextMark() != null && e.getProblemMark() != null
            && e.getContextMark().getLine() != e.getProblemMark().getLine()) {
          sb.append(" that starts on line ").append(e.getContextMark().getLine() + 1);
        }
        sb.append(")");
      }
      if (e.getContext() != null && e.getContext().contains("flow")) {
        sb.append("; inside [ ] or { }, quote values that contain '?', ',', ':', '[', ']', '{' or '}'");
      } else if (problem.contains("mapping values are not allowed")) {
        sb.append("; check the indentation, and quote values that contain ': '");
      } else if (problem.contains("expected <block end>")) {
        sb.append("; check the indentation of this line against the lines above");
      }
      problems.add(
          new ConfigProblem(
              source,
              mark == null ? 0 : mark.getLine() + 1,
              mark == null ? 0 : mark.getColumn() + 1,
              sb.toString()));
    }

    private void problem(Node node, String message) {
      Mark m = node == null ? null : node.getStartMark();
      problems.add(
          new ConfigProblem(
              source, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1, message));
    }

    private static int line(Node node) {
      Mark m = node.getStartMark();
      return m == null ? 0 : m.getLine() + 1;
    }

    private static boolean isNull(Node node) {
      return node instanceof ScalarNode
          && (node.getTag().equals(Tag.NULL)
              && ((ScalarNode) node).getValue().trim().matches("|~|null|Null|NULL"));
    }

    private static String describe(Node node) {
      if (node == null || isNull(node)) {
        return "nothing";
      }
      if (node instanceof SequenceNode) {
        return "a list";
      }
      if (node instanceof MappingNode) {
        return "a mapping";
      }
      String v = ((ScalarNode) node).getValue();
      if (v.trim().isEmpty()) {
        return "an empty string";
      }
      if (v.length() > 60) {
        v = v.substring(0, 57) + "...";
      }
      return "'" + v + "'";
    }

    private static List<String> lower(List<String> words) {
      List<String> out = new ArrayList<>();
      for (String w : words) {
        out.add(w.toLowerCase(Locale.ROOT));
      }
      return out;
    }
  }
}
