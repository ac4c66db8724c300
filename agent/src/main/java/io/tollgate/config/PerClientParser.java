package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;

import io.tollgate.limiters.AlgorithmKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * {@code per-client: N% | off} and {@code per-client-key:} of the concurrency algorithms: no one
 * client holds more than {@code N%} of the rule's permits.
 *
 * <p>On by default (50%) on a rule keyed {@code global}, because such a rule's permits are one
 * pool that every client draws on, so one client can take all of it: fifteen connections sending
 * a body at a byte a second once held every permit of a {@code global} adaptive-concurrency rule,
 * and every other client got 503. Netflix's concurrency-limits partitions its limit for the same
 * reason, and Envoy's overload manager caps what one downstream may hold. Off by default on other
 * keys, whose pools are already per client (or per tenant, where a share per address is a choice).
 */
final class PerClientParser {

  static final List<String> KEYS = Arrays.asList("per-client", "per-client-key");
  /** The share of a {@code global} rule's permits one client may hold unless told otherwise. */
  static final int DEFAULT_GLOBAL_PERCENT = 50;

  /** What a rule says; {@link #percent} is 0 when off. */
  static final class Settings {
    static final Settings OFF = new Settings(0, null);
    final int percent;
    final List<String> key;

    Settings(int percent, List<String> key) {
      this.percent = percent;
      this.key = key;
    }
  }

  private final YamlNodes y;
  private final KeyParser keys;

  PerClientParser(YamlNodes y, KeyParser keys) {
    this.y = y;
    this.keys = keys;
  }

  Settings parse(Map<String, NodeTuple> f, AlgorithmKind algorithm, List<String> ruleKey,
      String ctx) {
    NodeTuple share = f.get("per-client");
    NodeTuple keyTuple = f.get("per-client-key");
    boolean concurrency = algorithm == AlgorithmKind.CONCURRENCY
        || algorithm == AlgorithmKind.ADAPTIVE_CONCURRENCY;
    if (!concurrency) {
      for (NodeTuple t : new NodeTuple[] {share, keyTuple}) {
        if (t != null) {
          y.problem(t.getKeyNode(), ctx + ((ScalarNode) t.getKeyNode()).getValue()
              + " applies to the concurrency and adaptive-concurrency algorithms only (a share of"
              + " the permits in flight); remove it");
        }
      }
      return Settings.OFF;
    }
    boolean global = ruleKey.equals(Collections.singletonList("global"));
    int percent = global ? DEFAULT_GLOBAL_PERCENT : 0;
    if (share != null) {
      Integer given = percent(share, ctx);
      if (given == null) {
        return Settings.OFF;
      }
      percent = given;
    }
    List<String> clientKey = keyTuple == null ? null : keys.key(keyTuple, ctx);
    if (keyTuple != null && share == null && !global) {
      y.problem(keyTuple.getKeyNode(), ctx + "per-client-key needs per-client (for example"
          + " 'per-client: 50%'): on a rule not keyed 'global' the share is off unless given");
    }
    List<String> effective = clientKey == null ? Collections.singletonList("ip") : clientKey;
    if (percent > 0 && effective.equals(ruleKey)) {
      y.problem((keyTuple != null ? keyTuple : share).getKeyNode(), ctx + "per-client-key "
          + effective + " is the rule's own key, whose permits are each client's already;"
          + " give another key (the rule's key is " + ruleKey + ") or remove per-client");
    }
    return new Settings(percent, clientKey);
  }

  /** {@code N%} (1 to 100) or {@code off} (0); null when wrong. */
  private Integer percent(NodeTuple t, String ctx) {
    String v = t.getValueNode() instanceof ScalarNode && !isNull(t.getValueNode())
        ? ((ScalarNode) t.getValueNode()).getValue().trim().toLowerCase(Locale.ROOT) : null;
    if (v != null && (v.equals("off") || v.equals("false"))) {
      return 0;
    }
    if (v != null && v.matches("[0-9]{1,3}%")) {
      int n = Integer.parseInt(v.substring(0, v.length() - 1));
      if (n >= 1 && n <= 100) {
        return n;
      }
    }
    y.problem(t.getValueNode(), ctx + "per-client must be a share such as 50% (1% to 100%) or"
        + " off, got " + describe(t.getValueNode()));
    return null;
  }
}
