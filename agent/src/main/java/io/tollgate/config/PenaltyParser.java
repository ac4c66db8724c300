package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/** A rule's {@code penalty:}: after how many refusals within how long a key is boxed, and for how long. */
final class PenaltyParser {

  static final List<String> PENALTY_KEYS = Arrays.asList("after", "within", "box-for");

  private final YamlNodes y;

  PenaltyParser(YamlNodes y) {
    this.y = y;
  }

  PenaltyConfig parse(Node node, String ctx) {
    String example = "a mapping such as { after: 5, within: 1m, box-for: 15m }";
    if (!(node instanceof MappingNode)) {
      y.problem(node, ctx + "penalty must be " + example + ", got " + describe(node));
      return null;
    }
    Map<String, NodeTuple> pf = y.fields((MappingNode) node, PENALTY_KEYS, "in penalty of " + ctx.substring(0, ctx.length() - 2), "penalty.");
    Long after = null;
    Long within = null;
    Long boxFor = null;
    for (String k : PENALTY_KEYS) {
      if (pf.get(k) == null && !y.misspelt((MappingNode) node, PENALTY_KEYS, k)) {
        y.problem(node, ctx + "penalty needs '" + k + "'; write " + example);
      }
    }
    if (pf.get("after") != null) {
      after = y.integer(pf.get("after").getValueNode(), "penalty.after", "a number of refusals from 1 to " + io.tollgate.limiters.PenaltyBox.MAX_REFUSALS, 1, io.tollgate.limiters.PenaltyBox.MAX_REFUSALS, ctx);
    }
    if (pf.get("within") != null) {
      within = y.duration(pf.get("within").getValueNode(), "penalty.within", ctx);
    }
    if (pf.get("box-for") != null) {
      boxFor = y.duration(pf.get("box-for").getValueNode(), "penalty.box-for", ctx);
    }
    return after == null || within == null || boxFor == null
        ? null
        : new PenaltyConfig(after.intValue(), within, boxFor);
  }
}
