package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/** An {@code allow:} section, of a rule or of the whole file: the CIDRs and keys never limited. */
final class AllowParser {

  static final List<String> ALLOW_KEYS = Arrays.asList("cidrs", "keys");

  private final YamlNodes y;

  AllowParser(YamlNodes y) {
    this.y = y;
  }

  AllowConfig parse(Node node, String ctx, boolean keysAllowed) {
    String where = ctx.isEmpty() ? "allow" : "allow of " + ctx.substring(0, ctx.length() - 2);
    if (!(node instanceof MappingNode)) {
      y.problem(node, ctx + "allow must be a mapping such as { cidrs: [10.0.0.0/8] }, got " + describe(node));
      return null;
    }
    Map<String, NodeTuple> af = y.fields((MappingNode) node, ALLOW_KEYS, "in " + where, "allow.");
    List<String> cidrs = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    boolean ok = true;
    NodeTuple ct = af.get("cidrs");
    if (ct != null) {
      for (Node itemNode : y.listItems(ct.getValueNode(), "allow.cidrs", "a list of networks such as [10.0.0.0/8, 2001:db8::/32]", ctx)) {
        String c = y.string(itemNode, "each entry of allow.cidrs", "a CIDR such as 10.0.0.0/8", ctx);
        if (c == null) {
          ok = false;
        } else if (ClientIpSectionParser.cidrProblem(c.trim()) != null) {
          y.problem(itemNode, ctx + "allow.cidrs: '" + c + "' is not an IP address or CIDR such as 10.0.0.0/8 or fd00::/8 (" + ClientIpSectionParser.cidrProblem(c.trim()) + ")");
          ok = false;
        } else {
          cidrs.add(c.trim());
        }
      }
    }
    NodeTuple kt = af.get("keys");
    if (kt != null) {
      if (!keysAllowed) {
        y.problem(kt.getKeyNode(), "allow.keys at the top level would apply to every rule's key; give it in a rule's 'allow:' instead");
        ok = false;
      } else {
        for (Node itemNode : y.listItems(kt.getValueNode(), "allow.keys", "a list of key values such as [partner-key-1]", ctx)) {
          String k = y.string(itemNode, "each entry of allow.keys", "a key value", ctx);
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
}
