package io.tollgate.config;

import io.tollgate.limiters.LimitSpec;
import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isToken;
import static io.tollgate.config.YamlNodes.suggest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** A rule's {@code plans:}: the request header that names the plan, the default plan, each plan's limits. */
final class PlansParser {

  static final List<String> PLANS_KEYS = Arrays.asList("header", "default", "limits");

  private final YamlNodes y;
  private final LimitsParser limits;

  PlansParser(YamlNodes y, LimitsParser limits) {
    this.y = y;
    this.limits = limits;
  }

  PlansConfig parse(Node node, String ctx) {
    String example = "a mapping such as { header: X-Plan, default: free, limits: { free: {limit: 10, period: 1m}, pro: {limit: 1000, period: 1m} } }";
    if (!(node instanceof MappingNode)) {
      y.problem(node, ctx + "plans must be " + example + ", got " + describe(node));
      return null;
    }
    Map<String, NodeTuple> pf = y.fields((MappingNode) node, PLANS_KEYS, "in plans of " + ctx.substring(0, ctx.length() - 2), "plans.");
    boolean ok = true;
    String header = null;
    if (pf.get("header") == null) {
      if (!y.misspelt((MappingNode) node, PLANS_KEYS, "header")) {
        y.problem(node, ctx + "plans needs 'header:', the request header that names the plan, such as X-Plan");
      }
      ok = false;
    } else {
      header = y.string(pf.get("header").getValueNode(), "plans.header", "a request header name such as X-Plan", ctx);
      if (header != null && !isToken(header.trim())) {
        y.problem(pf.get("header").getValueNode(), ctx + "plans.header '" + header + "' is not a valid header name");
        header = null;
      }
      ok &= header != null;
    }
    Map<String, List<LimitSpec>> byPlan = new LinkedHashMap<>();
    NodeTuple lt = pf.get("limits");
    if (lt == null) {
      y.problem(node, ctx + "plans needs 'limits:', the limits of each plan, such as { free: {limit: 10, period: 1m} }");
      ok = false;
    } else if (!(lt.getValueNode() instanceof MappingNode)) {
      y.problem(lt.getValueNode(), ctx + "plans.limits must map each plan name to its limits, such as { free: {limit: 10, period: 1m} }, got " + describe(lt.getValueNode()));
      ok = false;
    } else {
      for (NodeTuple t : ((MappingNode) lt.getValueNode()).getValue()) {
        Node k = t.getKeyNode();
        String plan = k instanceof ScalarNode ? ((ScalarNode) k).getValue().trim() : null;
        if (plan == null || !RuleParser.isRuleName(plan)) {
          y.problem(k, ctx + "plan names use only letters, digits, '.', '_' and '-', got " + describe(k));
          ok = false;
          continue;
        }
        boolean duplicate = false;
        for (String p : byPlan.keySet()) {
          duplicate |= p.equalsIgnoreCase(plan);
        }
        if (duplicate) {
          y.problem(k, ctx + "plan '" + plan + "' is given twice (plan names are matched in any case)");
          ok = false;
          continue;
        }
        List<LimitSpec> l = limits.list(t.getValueNode(), "plan '" + plan + "'", ctx);
        if (l == null) {
          ok = false;
        } else {
          byPlan.put(plan, l);
        }
      }
      if (byPlan.isEmpty() && ok) {
        y.problem(lt.getValueNode(), ctx + "plans.limits names no plan");
        ok = false;
      }
    }
    String def = null;
    if (pf.get("default") == null) {
      y.problem(node, ctx + "plans needs 'default:', the plan of requests whose header names no plan");
      ok = false;
    } else {
      def = y.string(pf.get("default").getValueNode(), "plans.default", "the name of a plan", ctx);
      if (def != null && ok) {
        String found = null;
        for (String p : byPlan.keySet()) {
          if (p.equalsIgnoreCase(def.trim())) {
            found = p;
          }
        }
        if (found == null) {
          String hint = suggest(def.trim(), new ArrayList<>(byPlan.keySet()));
          y.problem(
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
}
