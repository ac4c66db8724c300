package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.line;
import static io.tollgate.config.YamlNodes.suggest;

import io.tollgate.limiters.AlgorithmKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The {@code outbound:} list: limits on the app's own calls to its partners. Each rule's limits are
 * read by the parser of inbound rules' limits ({@link LimitsParser}), so that the same algorithms
 * and settings mean the same; what is outbound's own is the destination ({@code match}), the key,
 * and how a call over the limit waits or fails and how long a partner's wait is honoured.
 */
final class OutboundParser {

  static final List<String> OUTBOUND_KEYS =
      Arrays.asList(
          "name", "match", "key", "algorithm", "limit", "period", "burst", "limits", "max-delay",
          "max-wait", "on-limit", "honour-partner", "max-honoured-wait", "backend", "mode",
          "on-failure", "max-keys");
  /** {@code path} as inbound rules write it; {@code paths} read the same. */
  static final List<String> MATCH_KEYS = Arrays.asList("hosts", "port", "path", "paths", "methods");
  /**
   * The agent's hold cap (engine.RequestHold, 30 s): no call is held longer, as no request is, so
   * that a thread of the app is never parked past what an operator expects of the agent.
   */
  static final long MAX_WAIT_CAP_NANOS = TimeUnit.SECONDS.toNanos(30);
  /** How long a call is paced when the rule does not say: the gcra's max-delay, else this. */
  static final long DEFAULT_MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
  static final long DEFAULT_MAX_HONOURED_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
  static final long DEFAULT_MAX_KEYS = 10_000;

  private final YamlNodes y;
  private final MatchParser matchParser;
  private final LimitsParser limitsParser;

  OutboundParser(YamlNodes y) {
    this.y = y;
    this.matchParser = new MatchParser(y);
    this.limitsParser = new LimitsParser(y);
  }

  /** The rules of {@code outbound:} ({@code tuple}, or null) in file order. */
  List<OutboundRuleConfig> parse(NodeTuple tuple, Backend fileBackend) {
    return y.namedItems(tuple,
        "outbound must be a list of outbound rules, each starting with '- name: ...'",
        // A class, not a lambda: read at start, where linking one spins a class
        new YamlNodes.ItemReader<OutboundRuleConfig>() {
          @Override
          public OutboundRuleConfig read(Node item, int index, Map<String, Node> names) {
            return rule(item, index, names, fileBackend);
          }
        });
  }

  private OutboundRuleConfig rule(
      Node item, int index, Map<String, Node> names, Backend fileBackend) {
    if (!(item instanceof MappingNode)) {
      y.problem(item, "outbound rule #" + index + " must be a mapping with name, match, limit,"
          + " period and so on, got " + describe(item));
      return null;
    }
    int before = y.problemCount();
    MappingNode map = (MappingNode) item;
    NodeTuple nameTuple = y.findKey(map, "name");
    String name = null;
    String ctx = "outbound rule #" + index + ": ";
    if (nameTuple == null) {
      y.problem(item, "outbound rule #" + index + " has no name; every outbound rule needs a"
          + " unique 'name:' (letters, digits, '.', '_', '-')");
    } else {
      Node v = nameTuple.getValueNode();
      String n = isNull(v) || !(v instanceof ScalarNode) ? null : ((ScalarNode) v).getValue();
      if (n == null || !RuleParser.isRuleName(n)) {
        y.problem(v, ctx + "name must use only letters, digits, '.', '_' and '-', got "
            + describe(v));
      } else if (names.containsKey(n)) {
        y.problem(v, "duplicate outbound rule name '" + n + "': the outbound rule on line "
            + line(names.get(n)) + " already uses it; outbound rule names must be unique");
      } else {
        names.put(n, v);
        name = n;
        ctx = "outbound rule '" + n + "': ";
      }
    }
    Map<String, NodeTuple> f =
        y.fields(map, OUTBOUND_KEYS, "in " + ctx.substring(0, ctx.length() - 2), "");
    Map<String, Integer> keyLines = new HashMap<>();
    y.recordLines(f, "", keyLines);

    List<String> hosts = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    Set<String> methods = new LinkedHashSet<>();
    int port = 0;
    NodeTuple matchTuple = f.get("match");
    if (matchTuple == null || isNull(matchTuple.getValueNode())) {
      y.problem(matchTuple == null ? map : matchTuple.getValueNode(), ctx + "match is missing;"
          + " name the partner's hosts, for example 'match: { hosts: api.partner.example }'");
    } else if (!(matchTuple.getValueNode() instanceof MappingNode)) {
      y.problem(matchTuple.getValueNode(), ctx + "match must be a mapping with 'hosts:',"
          + " 'port:', 'path:' and/or 'methods:', got " + describe(matchTuple.getValueNode()));
    } else {
      Map<String, NodeTuple> mf = y.fields((MappingNode) matchTuple.getValueNode(), MATCH_KEYS,
          "in match of " + ctx.substring(0, ctx.length() - 2), "match.");
      y.recordLines(mf, "match.", keyLines);
      if (mf.get("hosts") == null) {
        y.problem(matchTuple.getKeyNode(), ctx + "match.hosts is missing: an outbound rule names"
            + " the partner it protects, such as 'hosts: api.partner.example' or '*.partner.example'"
            + " ('*' for every host)");
      } else {
        hosts = matchParser.hosts(mf.get("hosts").getValueNode(), "match", ctx);
      }
      if (mf.get("port") != null) {
        Long p = y.integer(mf.get("port").getValueNode(), "match.port", "a port from 1 to 65535",
            1, 65535, ctx);
        port = p == null ? 0 : p.intValue();
      }
      NodeTuple pathTuple = mf.get("path") != null ? mf.get("path") : mf.get("paths");
      if (mf.get("path") != null && mf.get("paths") != null) {
        y.problem(mf.get("paths").getKeyNode(), ctx + "give either match.path or match.paths"
            + " (they mean the same), not both");
      } else if (pathTuple != null) {
        paths = matchParser.paths(pathTuple.getValueNode(), "match", ctx);
      }
      if (mf.get("methods") != null) {
        methods = matchParser.methods(mf.get("methods").getValueNode(), "match", ctx);
      }
    }
    if (hosts.contains("*")) {
      hosts = Collections.emptyList();
    }

    String key = key(f.get("key"), ctx);
    AlgorithmKind algorithm = AlgorithmKind.TOKEN_BUCKET;
    NodeTuple algTuple = f.get("algorithm");
    if (algTuple != null) {
      AlgorithmKind a = algorithm(algTuple.getValueNode(), ctx);
      if (a != null) {
        algorithm = a;
      }
    }
    LimitsParser.Limits lim = limitsParser.parse(f, map, algorithm, algTuple, ctx);
    long maxDelay = 0;
    NodeTuple md = f.get("max-delay");
    if (md != null) {
      Long d = y.duration(md.getValueNode(), "max-delay", ctx);
      if (algorithm != AlgorithmKind.GCRA) {
        y.problem(md.getKeyNode(), ctx + "max-delay applies to the gcra algorithm only (it books"
            + " calls ahead to pace them: the leaky bucket); add 'algorithm: gcra' or remove it");
      } else if (d != null) {
        maxDelay = d;
      }
    }
    OnLimit onLimit = y.enumValue(f.get("on-limit"), "on-limit", OnLimit.values(), ctx);
    onLimit = onLimit == null ? OnLimit.WAIT : onLimit;
    long maxWait = maxWait(f.get("max-wait"), maxDelay, onLimit, ctx);
    if (md != null && maxDelay > maxWait) {
      y.problem(md.getValueNode(), ctx + "max-delay (" + Durations.format(maxDelay) + ") is longer"
          + " than the call may wait (max-wait " + Durations.format(maxWait) + (onLimit
          == OnLimit.FAIL ? ", none with on-limit: fail" : "") + "); a call booked that far ahead"
          + " could not be sent in time; shorten max-delay"
          + (onLimit == OnLimit.FAIL ? " or remove it" : " or lengthen max-wait"));
    }
    boolean honour = true;
    if (f.get("honour-partner") != null) {
      Boolean b = y.bool(f.get("honour-partner").getValueNode(), "honour-partner", ctx);
      honour = b == null || b;
    }
    long maxHonoured = DEFAULT_MAX_HONOURED_WAIT_NANOS;
    NodeTuple mh = f.get("max-honoured-wait");
    if (mh != null) {
      Long d = y.duration(mh.getValueNode(), "max-honoured-wait", ctx);
      if (d != null) {
        maxHonoured = d;
      }
      if (!honour) {
        y.problem(mh.getKeyNode(), ctx + "max-honoured-wait caps the partner's waits, which"
            + " 'honour-partner: false' ignores; remove one of them");
      }
    }
    Backend backend = y.enumValue(f.get("backend"), "backend", Backend.values(), ctx);
    if (backend == Backend.REDIS && fileBackend != Backend.REDIS) {
      y.problem(f.get("backend").getValueNode(), ctx + "backend is 'redis' but the file's backend"
          + " is local; add 'backend: redis' and a 'redis' section at the top of the file");
    }
    Mode mode = y.enumValue(f.get("mode"), "mode", Mode.values(), ctx);
    OnFailure onFailure = y.enumValue(f.get("on-failure"), "on-failure", OnFailure.values(), ctx);
    long maxKeys = DEFAULT_MAX_KEYS;
    if (f.get("max-keys") != null) {
      Long k = y.positive(f.get("max-keys").getValueNode(), "max-keys", ctx);
      maxKeys = k == null ? maxKeys : k;
    }
    if (lim != null && lim.plans != null) {
      y.problem(map, ctx + "plans do not apply to outbound rules");
    }
    if (y.problemCount() > before || name == null || lim == null || lim.limits == null) {
      return null;
    }
    return new OutboundRuleConfig(name, line(item), keyLines, hosts, port, paths, methods, key,
        lim.algorithm, lim.limits, maxDelay, maxWait, onLimit, honour, maxHonoured, backend, mode,
        onFailure, maxKeys);
  }

  /**
   * {@code max-wait}: at most the agent's hold cap; by default the gcra's max-delay (the pacing
   * it books), else {@link #DEFAULT_MAX_WAIT_NANOS}; none with {@code on-limit: fail}.
   */
  private long maxWait(NodeTuple mw, long maxDelay, OnLimit onLimit, String ctx) {
    if (mw == null) {
      return onLimit == OnLimit.FAIL ? 0 : Math.max(maxDelay, DEFAULT_MAX_WAIT_NANOS);
    }
    Long d = y.duration(mw.getValueNode(), "max-wait", ctx);
    if (onLimit == OnLimit.FAIL) {
      y.problem(mw.getKeyNode(), ctx + "max-wait says how long a call is paced, and"
          + " 'on-limit: fail' paces none; remove one of them");
      return 0;
    }
    if (d != null && d > MAX_WAIT_CAP_NANOS) {
      y.problem(mw.getValueNode(), ctx + "max-wait must be at most 30s, the longest the agent"
          + " holds any thread of the app; past it the call fails fast with its Retry-After");
      return MAX_WAIT_CAP_NANOS;
    }
    return d == null ? DEFAULT_MAX_WAIT_NANOS : d;
  }

  /** {@code key}: global (the default), host or header:NAME. */
  private String key(NodeTuple keyTuple, String ctx) {
    if (keyTuple == null) {
      return OutboundRuleConfig.KEY_GLOBAL;
    }
    Node node = keyTuple.getValueNode();
    String raw = y.string(node, "key", "global, host or header:NAME", ctx);
    if (raw == null) {
      return OutboundRuleConfig.KEY_GLOBAL;
    }
    String v = raw.trim();
    String lower = v.toLowerCase(Locale.ROOT);
    if (lower.equals(OutboundRuleConfig.KEY_GLOBAL) || lower.equals(OutboundRuleConfig.KEY_HOST)) {
      return lower;
    }
    if (lower.startsWith(OutboundRuleConfig.KEY_HEADER_PREFIX)) {
      String header = v.substring(OutboundRuleConfig.KEY_HEADER_PREFIX.length()).trim();
      if (YamlNodes.isToken(header)) {
        return OutboundRuleConfig.KEY_HEADER_PREFIX + header.toLowerCase(Locale.ROOT);
      }
      y.problem(node, ctx + "key '" + v + "' names no header; write header:NAME, such as"
          + " header:X-Tenant (a header the app sets on its call)");
      return OutboundRuleConfig.KEY_GLOBAL;
    }
    String hint = suggest(lower, Arrays.asList("global", "host", "header:"));
    y.problem(node, ctx + "unknown key '" + v + "'"
        + (hint != null ? "; did you mean '" + hint + "'?" : "")
        + " (allowed: global, host, header:NAME)");
    return OutboundRuleConfig.KEY_GLOBAL;
  }

  private AlgorithmKind algorithm(Node node, String ctx) {
    List<String> names = new ArrayList<>();
    for (AlgorithmKind k : AlgorithmKind.values()) {
      if (k != AlgorithmKind.ADAPTIVE_CONCURRENCY && k != AlgorithmKind.CONCURRENCY) {
        names.add(k.yamlName());
      }
    }
    String v = node instanceof ScalarNode && !isNull(node) ? ((ScalarNode) node).getValue() : null;
    AlgorithmKind kind = v == null ? null : AlgorithmKind.fromYamlName(v.trim());
    if (kind == AlgorithmKind.CONCURRENCY || kind == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      y.problem(node, ctx + "algorithm " + kind.yamlName() + " does not apply to outbound rules:"
          + " they limit the rate of calls (allowed: " + String.join(", ", names) + ")");
      return null;
    }
    if (kind == null) {
      String hint = v == null ? null : suggest(v, names);
      y.problem(node, ctx + "unknown algorithm " + describe(node)
          + (hint != null ? "; did you mean '" + hint + "'?" : "")
          + " (allowed: " + String.join(", ", names) + ")");
    }
    return kind;
  }
}
