package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.lower;
import static io.tollgate.config.YamlNodes.suggest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** A rule's {@code match:}: path globs, HTTP methods and a route template. */
final class MatchParser {

  static final List<String> MATCH_KEYS = Arrays.asList("path", "methods", "route");
  static final List<String> HTTP_METHODS =
      Arrays.asList(
          "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "QUERY",
          "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH");

  private final YamlNodes y;

  MatchParser(YamlNodes y) {
    this.y = y;
  }

  /** What a rule's {@code match:} says: paths, methods and route; each empty or null for any. */
  static final class Match {
    final List<String> paths;
    final Set<String> methods;
    final String route;

    Match(List<String> paths, Set<String> methods, String route) {
      this.paths = paths;
      this.methods = methods;
      this.route = route;
    }
  }

  /** {@code matchTuple} is the rule's {@code match:} key, or null; its keys' lines go to {@code keyLines}. */
  Match parse(NodeTuple matchTuple, String ctx, Map<String, Integer> keyLines) {
    List<String> paths = new ArrayList<>();
    Set<String> methods = new LinkedHashSet<>();
    String route = null;
    if (matchTuple != null && !isNull(matchTuple.getValueNode())) {
      Node m = matchTuple.getValueNode();
      if (!(m instanceof MappingNode)) {
        y.problem(m, ctx + "match must be a mapping with 'path:', 'methods:' and/or 'route:', got " + describe(m));
      } else {
        Map<String, NodeTuple> mf = y.fields((MappingNode) m, MATCH_KEYS, "in match of " + ctx.substring(0, ctx.length() - 2), "match.");
        y.recordLines(mf, "match.", keyLines);
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
          route = y.string(rt.getValueNode(), "match.route", "a route template starting with '/', such as /api/orders/{id}", ctx);
          if (route != null && !route.startsWith("/")) {
            y.problem(rt.getValueNode(), ctx + "match.route must start with '/', got '" + route + "'");
            route = null;
          }
        }
      }
    }

    return new Match(paths, methods, route);
  }

  private List<String> paths(Node node, String ctx) {
    List<String> out = new ArrayList<>();
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
      if (items.isEmpty()) {
        y.problem(node, ctx + "match.path is an empty list; leave 'path' out to match every path");
      }
    } else {
      items = Collections.singletonList(node);
    }
    for (Node item : items) {
      String p = y.string(item, "match.path", "a path glob starting with '/', such as /api/** (or a list of them)", ctx);
      if (p == null) {
        continue;
      }
      if (!p.startsWith("/")) {
        y.problem(item, ctx + "match.path '" + p + "' must start with '/', for example '/" + p + "'");
      } else if (p.indexOf('?') >= 0 && p.indexOf('=') > p.indexOf('?')) {
        y.problem(item, ctx + "match.path '" + p + "' looks like it has a query string; paths match without it");
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
      y.problem(node, ctx + "match.methods must be a list of HTTP methods such as [GET, POST], got " + describe(node));
      return out;
    }
    for (Node item : items) {
      String m = y.string(item, "each entry of match.methods", "an HTTP method such as GET", ctx);
      if (m == null) {
        continue;
      }
      String upper = m.toUpperCase(Locale.ROOT);
      if (HTTP_METHODS.contains(upper)) {
        out.add(upper);
      } else {
        String hint = suggest(upper.toLowerCase(Locale.ROOT), lower(HTTP_METHODS));
        y.problem(
            item,
            ctx + "'" + m + "' is not an HTTP method"
                + (hint != null ? "; did you mean '" + hint.toUpperCase(Locale.ROOT) + "'?" : "")
                + " (allowed: " + String.join(", ", HTTP_METHODS) + ")");
      }
    }
    return out;
  }
}
