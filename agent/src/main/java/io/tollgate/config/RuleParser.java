package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.line;
import static io.tollgate.config.YamlNodes.suggest;

import io.tollgate.limiters.AlgorithmKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The {@code rules:} list: each rule's name, settings and cross-checks, with its {@code match},
 * key, limits, cost, allowlist and penalty read by their own parsers.
 */
final class RuleParser {

  static final List<String> RULE_KEYS =
      Arrays.asList(
          "name",
          "match",
          "key",
          "key-fallback",
          "key-normalize",
          "algorithm",
          "limit",
          "period",
          "burst",
          "cost",
          "on-failure",
          "mode",
          "quota-headers",
          "partition-key",
          "max-keys",
          "limits",
          "max-delay",
          "calendar",
          "time-zone",
          "cost-header",
          "count-when",
          "plans",
          "allow",
          "penalty",
          "skip",
          "response",
          "min",
          "initial",
          "max",
          "max-wait",
          "per-client",
          "per-client-key");
  /** The enumerations' values, once: {@code values()} copies its array at every call (every rule). */
  private static final OnFailure[] ON_FAILURES = OnFailure.values();
  private static final Mode[] MODES = Mode.values();

  /**
   * Whether {@code name} is a rule's (or a plan's) name: letters, digits, '.', '_' and '-', at
   * least one. A loop, not a regular expression: every rule of a long file is checked at every
   * load, and a matcher each was a tenth of what reading a rule allocated.
   */
  static boolean isRuleName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '.' || c == '_' || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The longest a gcra rule may hold a request: longer would tie up the server's threads. */
  static final long MAX_DELAY_CAP_NANOS = 10_000_000_000L;

  private final YamlNodes y;
  private final MatchParser matchParser;
  private final KeyParser keys;
  private final LimitsParser limitsParser;
  private final CostParser costs;
  private final CountWhenParser countWhens;
  private final AllowParser allows;
  private final PenaltyParser penalties;
  private final AdaptiveParser adaptives;
  private final PerClientParser perClients;

  RuleParser(YamlNodes y) {
    this.y = y;
    this.matchParser = new MatchParser(y);
    this.keys = new KeyParser(y);
    this.limitsParser = new LimitsParser(y);
    this.costs = new CostParser(y);
    this.countWhens = new CountWhenParser(y);
    this.allows = new AllowParser(y);
    this.penalties = new PenaltyParser(y);
    this.adaptives = new AdaptiveParser(y);
    this.perClients = new PerClientParser(y, keys);
  }

  /** The rules of {@code rules:} ({@code tuple}, or null), with the file's {@code allow:} added to each. */
  List<RuleConfig> parse(NodeTuple tuple, AllowConfig topAllow) {
    return y.namedItems(tuple, "rules must be a list of rules, each starting with '- name: ...'",
        // A class, not a lambda: read at start, where linking one spins a class
        new YamlNodes.ItemReader<RuleConfig>() {
          @Override
          public RuleConfig read(Node item, int index, Map<String, Node> names) {
            return rule(item, index, names, topAllow);
          }
        });
  }

  /** Rule #{@code index} of the file; null (with its problems reported) when it is wrong. */
  private RuleConfig rule(Node item, int index, Map<String, Node> names, AllowConfig topAllow) {
    if (!(item instanceof MappingNode)) {
      y.problem(
          item,
          "rule #" + index + " must be a mapping with name, match, limit, period and so on, got "
              + describe(item));
      return null;
    }
    int before = y.problemCount();
    MappingNode map = (MappingNode) item;
    // The name comes first so that every other message can say which rule it is about.
    String name = null;
    String ctx = "rule #" + index + ": ";
    NodeTuple nameTuple = y.findKey(map, "name");
    if (nameTuple != null) {
      Node v = nameTuple.getValueNode();
      String n = isNull(v) || !(v instanceof ScalarNode) ? null : ((ScalarNode) v).getValue();
      if (n != null && isRuleName(n)) {
        name = n;
        ctx = "rule '" + name + "': ";
      }
    }
    Map<String, NodeTuple> f = y.fields(map, RULE_KEYS, "in " + ctx.substring(0, ctx.length() - 2), "");
    Map<String, Integer> keyLines = new HashMap<>();
    y.recordLines(f, "", keyLines);
    name = checkName(item, index, nameTuple, name, names, ctx);

    MatchParser.Match match = matchParser.parse(f.get("match"), ctx, keyLines);
    RequestConditions skip = matchParser.parseSkip(f.get("skip"), ctx, keyLines);

    NodeTuple keyTuple = f.get("key");
    List<String> key = keys.key(keyTuple, ctx);
    List<String> keyFallback = keys.fallback(f.get("key-fallback"), keyTuple, ctx);

    AlgorithmKind algorithm = AlgorithmKind.TOKEN_BUCKET;
    NodeTuple algTuple = f.get("algorithm");
    if (algTuple != null) {
      AlgorithmKind a = algorithm(algTuple.getValueNode(), ctx);
      if (a != null) {
        algorithm = a;
      }
    }

    // adaptive-concurrency finds its own limit: no limit, period, cost... (reported by its parser)
    boolean adaptive = algorithm == AlgorithmKind.ADAPTIVE_CONCURRENCY;
    AdaptiveParser.Settings adaptiveSettings = adaptives.parse(f, algorithm, ctx);
    LimitsParser.Limits lim =
        adaptive ? null : limitsParser.parse(f, map, algorithm, algTuple, ctx);
    if (lim != null) {
      algorithm = lim.algorithm;
    }
    PerClientParser.Settings perClient = perClients.parse(f, algorithm, key, ctx);

    CostConfig cost = CostConfig.ONE;
    NodeTuple costTuple = adaptive ? null : f.get("cost");
    if (costTuple != null) {
      CostConfig c = costs.parse(costTuple.getValueNode(), ctx);
      if (c != null) {
        cost = c;
      }
    }
    OnFailure onFailure = y.enumValue(f.get("on-failure"), "on-failure", ON_FAILURES, ctx);
    Mode mode = y.enumValue(f.get("mode"), "mode", MODES, ctx);
    NodeTuple pk = f.get("partition-key");
    Boolean partitionKey = pk == null ? null : y.bool(pk.getValueNode(), "partition-key", ctx);
    Boolean quotaHeaders = null;
    NodeTuple qh = f.get("quota-headers");
    if (qh != null) {
      quotaHeaders = y.bool(qh.getValueNode(), "quota-headers", ctx);
      if (adaptive && Boolean.TRUE.equals(quotaHeaders)) {
        y.problem(
            qh.getValueNode(),
            ctx + "quota-headers cannot be true with adaptive-concurrency: its limit moves every window, so it tells clients no quota; remove it");
      }
    }
    Boolean keyNormalize = null;
    NodeTuple kn = f.get("key-normalize");
    if (kn != null) {
      keyNormalize = y.bool(kn.getValueNode(), "key-normalize", ctx);
    }
    Long maxKeys = null;
    NodeTuple mk = f.get("max-keys");
    if (mk != null) {
      maxKeys = y.positive(mk.getValueNode(), "max-keys", ctx);
    }
    long maxDelay = adaptive ? 0 : maxDelay(f.get("max-delay"), algorithm, ctx);
    String costHeader = adaptive ? null : costs.header(f.get("cost-header"), algorithm, ctx);
    CountWhen countWhen = countWhens.parse(f.get("count-when"), algorithm, ctx);
    AllowConfig allow = allow(f.get("allow"), key, ctx).plus(topAllow);
    PenaltyConfig penalty = adaptive ? null : penalty(f.get("penalty"), algorithm, ctx);
    ResponseConfig response =
        f.get("response") == null ? null : new ResponseParser(y).parse(f.get("response"), ctx);

    if (lim != null) {
      costs.checkFits(cost, costTuple, algorithm, lim.all(), ctx);
    }

    if (y.problemCount() > before
        || name == null
        || (adaptive
            ? adaptiveSettings == null
            : lim.limit == null || lim.period == null)) {
      return null;
    }
    if (adaptive) {
      // the ceiling stands as the rule's limit, over a nominal second; neither is advertised
      lim = new LimitsParser.Limits(algorithm, null, null, (long) adaptiveSettings.max,
          1_000_000_000L, null, null, null, false);
    }
    RuleConfig.Builder b =
        RuleConfig.builder(name)
            .line(line(item))
            .paths(match.paths)
            .methods(match.methods)
            .route(match.route)
            .hosts(match.hosts)
            .headers(match.headers)
            .skip(skip)
            .key(key)
            .keyFallback(keyFallback)
            .keyNormalize(keyNormalize)
            .algorithm(algorithm)
            .limit(lim.limit)
            .periodNanos(lim.period)
            .cost(cost)
            .onFailure(onFailure)
            .mode(mode)
            .quotaHeaders(quotaHeaders)
            .partitionKey(Boolean.TRUE.equals(partitionKey))
            .maxDelayNanos(maxDelay)
            .costHeader(costHeader)
            .countWhen(countWhen)
            .allow(allow)
            .penalty(penalty)
            .response(response)
            .perClient(perClient.percent, perClient.key);
    if (lim.calendar != null) {
      b.periodNanos(0).calendar(lim.calendar, lim.zone);
    }
    if (lim.plans != null) {
      b.plans(lim.plans);
    } else if (lim.listed) {
      b.limits(lim.limits);
    }
    if (lim.burst != null) {
      b.burst(lim.burst);
    }
    if (maxKeys != null) {
      b.maxKeys(maxKeys);
    }
    if (adaptive) {
      b.adaptive(adaptiveSettings.min, adaptiveSettings.initial, adaptiveSettings.max,
          adaptiveSettings.maxWaitNanos);
    }
    b.keyLines(keyLines);
    return b.build();
  }

  /** {@code max-delay}: how long a gcra rule may hold a request to pace it; 0 when not given. */
  private long maxDelay(NodeTuple md, AlgorithmKind algorithm, String ctx) {
    if (md == null) {
      return 0;
    }
    Long d = y.duration(md.getValueNode(), "max-delay", ctx);
    if (algorithm != AlgorithmKind.GCRA) {
      y.problem(
          md.getKeyNode(),
          ctx + "max-delay applies to the gcra algorithm only (it holds requests to pace them); add 'algorithm: gcra' or remove it");
    } else if (d != null && d > MAX_DELAY_CAP_NANOS) {
      y.problem(
          md.getValueNode(),
          ctx + "max-delay must be at most 10s: a held request keeps a server thread busy, so longer waits should be refused with Retry-After instead");
    } else if (d != null) {
      return d;
    }
    return 0;
  }

  /**
   * The rule's own {@code allow:} ({@link AllowConfig#NONE} when not given); keys are allowed only
   * on a rule keyed by one named part, which is what they are compared with.
   */
  private AllowConfig allow(NodeTuple allowTuple, List<String> key, String ctx) {
    if (allowTuple == null) {
      return AllowConfig.NONE;
    }
    AllowConfig a = allows.parse(allowTuple.getValueNode(), ctx, true);
    if (a == null) {
      return AllowConfig.NONE;
    }
    if (!a.keys().isEmpty()) {
      boolean oneNamedPart =
          key.size() == 1
              && (key.get(0).startsWith("header:") || key.get(0).startsWith("cookie:")
                  || key.get(0).startsWith("param:") || key.get(0).startsWith("query:")
                  || key.get(0).startsWith("form:") || key.get(0).equals("principal"));
      if (!oneNamedPart) {
        y.problem(
            allowTuple.getValueNode(),
            ctx + "allow.keys needs a rule keyed by one header:, cookie:, param:, query:, form: or principal part (the rule's key is "
                + key + "); allow client addresses with allow.cidrs");
      }
    }
    return a;
  }

  /** The rule's {@code penalty:}, or null; the concurrency algorithm has none. */
  private PenaltyConfig penalty(NodeTuple penaltyTuple, AlgorithmKind algorithm, String ctx) {
    if (penaltyTuple == null) {
      return null;
    }
    PenaltyConfig penalty = penalties.parse(penaltyTuple.getValueNode(), ctx);
    if (algorithm == AlgorithmKind.CONCURRENCY && penalty != null) {
      y.problem(penaltyTuple.getKeyNode(), ctx + "penalty does not apply to the concurrency algorithm");
      return null;
    }
    return penalty;
  }

  /**
   * Reports a missing, malformed or duplicate name; the rule's name, or null when it has none that
   * can be used.
   */
  private String checkName(
      Node item, int index, NodeTuple nameTuple, String name, Map<String, Node> names, String ctx) {
    if (nameTuple == null) {
      y.problem(
          item,
          "rule #" + index + " has no name; every rule needs a unique 'name:' (letters, digits, '.', '_', '-')");
    } else if (name == null) {
      Node v = nameTuple.getValueNode();
      if (isNull(v)) {
        y.problem(v, ctx + "name is empty; give the rule a unique name (letters, digits, '.', '_', '-')");
      } else {
        y.problem(
            v,
            ctx + "name must use only letters, digits, '.', '_' and '-', got " + describe(v));
      }
    } else {
      Node first = names.get(name);
      if (first != null) {
        y.problem(
            nameTuple.getValueNode(),
            "duplicate rule name '" + name + "': the rule on line " + line(first)
                + " already uses it; rule names must be unique");
        name = null;
      } else {
        names.put(name, nameTuple.getValueNode());
      }
    }

    return name;
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
      y.problem(
          node,
          ctx + "unknown algorithm " + describe(node)
              + (hint != null ? "; did you mean '" + hint + "'?" : "")
              + " (allowed: " + String.join(", ", names) + ")");
    }
    return kind;
  }
}
