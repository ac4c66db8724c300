package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.isToken;
import static io.tollgate.config.YamlNodes.line;

import io.tollgate.limiters.AlgorithmKind;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** A rule's {@code cost:} (per path glob) and {@code cost-header:}, and whether a cost can ever pass. */
final class CostParser {


  private final YamlNodes y;

  CostParser(YamlNodes y) {
    this.y = y;
  }

  CostConfig parse(Node node, String ctx) {
    String expected = "a positive integer, or a mapping such as { default: 1, /api/search: 5 }";
    if (node instanceof ScalarNode && !isNull(node)) {
      Long n = y.integer(node, "cost", expected, 1, Long.MAX_VALUE, ctx);
      return n == null ? null : new CostConfig(n, Collections.<String, Long>emptyMap());
    }
    if (!(node instanceof MappingNode)) {
      y.problem(node, ctx + "cost must be " + expected + ", got " + describe(node));
      return null;
    }
    long def = 1;
    Map<String, Long> byPath = new LinkedHashMap<>();
    Map<String, Node> seen = new HashMap<>();
    boolean ok = true;
    for (NodeTuple t : ((MappingNode) node).getValue()) {
      Node k = t.getKeyNode();
      if (!(k instanceof ScalarNode)) {
        y.problem(k, ctx + "cost keys must be 'default' or a path glob, got " + describe(k));
        ok = false;
        continue;
      }
      String glob = ((ScalarNode) k).getValue();
      Node first = seen.get(glob);
      if (first != null) {
        y.problem(k, ctx + "duplicate key '" + glob + "' in cost (first given on line " + line(first) + ")");
        ok = false;
        continue;
      }
      seen.put(glob, k);
      Long n = y.integer(t.getValueNode(), "cost for '" + glob + "'", "a positive integer", 1, Long.MAX_VALUE, ctx);
      if (n == null) {
        ok = false;
      } else if (glob.equals("default")) {
        def = n;
      } else if (glob.startsWith("/")) {
        byPath.put(glob, n);
      } else {
        y.problem(
            k,
            ctx + "cost keys must be 'default' or a path glob starting with '/', got '" + glob + "'");
        ok = false;
      }
    }
    return ok ? new CostConfig(def, byPath) : null;
  }

  /**
   * {@code cost-header}: the response header whose value corrects a request's cost, trimmed; null
   * when there is none or it is wrong.
   */
  String header(NodeTuple ch, AlgorithmKind algorithm, String ctx) {
    if (ch == null) {
      return null;
    }
    String costHeader = y.string(ch.getValueNode(), "cost-header", "a response header name such as X-Tollgate-Cost", ctx);
    if (costHeader != null && !isToken(costHeader.trim())) {
      y.problem(ch.getValueNode(), ctx + "cost-header '" + costHeader + "' is not a valid header name");
      return null;
    }
    if (costHeader != null && algorithm == AlgorithmKind.CONCURRENCY) {
      y.problem(ch.getKeyNode(), ctx + "cost-header does not apply to the concurrency algorithm, whose units are given back when the request ends");
      return null;
    }
    return costHeader == null ? null : costHeader.trim();
  }

  /** A request that costs more than the bucket (or window) holds could never pass: refused here. */
  void checkFits(
      CostConfig cost, NodeTuple costTuple, AlgorithmKind algorithm, List<LimitSpec> allLimits,
      String ctx) {
    if (algorithm != AlgorithmKind.CONCURRENCY && costTuple != null) {
      boolean bucket = algorithm == AlgorithmKind.TOKEN_BUCKET || algorithm == AlgorithmKind.GCRA;
      for (LimitSpec l : allLimits) {
        boolean burstGiven = l.burst() != l.limit();
        long capacity = bucket && burstGiven ? l.burst() : l.limit();
        String capacityName = bucket && burstGiven ? "burst" : "limit";
        if (cost.maxCost() > capacity) {
          y.problem(
              costTuple.getValueNode(),
              ctx + "a cost of " + cost.maxCost() + " is more than the rule's " + capacityName + " of "
                  + capacity + ", so such requests would always be refused; lower the cost or raise the "
                  + capacityName);
          break;
        }
      }
    }
  }
}
