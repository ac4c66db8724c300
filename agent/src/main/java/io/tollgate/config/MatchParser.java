package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.lower;
import static io.tollgate.config.YamlNodes.suggest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
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

/**
 * A rule's {@code match:} (path globs, HTTP methods, host globs, header conditions and a route
 * template) and its {@code skip:}, which says the same of requests the rule never counts (without a
 * route: see {@link #parseSkip}).
 */
final class MatchParser {

  static final List<String> MATCH_KEYS = Arrays.asList("path", "methods", "hosts", "headers", "route");
  static final List<String> SKIP_KEYS = Arrays.asList("path", "methods", "hosts", "headers", "route");
  static final List<String> HTTP_METHODS =
      Arrays.asList(
          "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "QUERY",
          "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH");

  private final YamlNodes y;

  MatchParser(YamlNodes y) {
    this.y = y;
  }

  /** What a rule's {@code match:} says: paths, methods, hosts, headers and route; each empty or null for any. */
  static final class Match {
    final List<String> paths;
    final Set<String> methods;
    final List<String> hosts;
    final Map<String, String> headers;
    final String route;

    Match(List<String> paths, Set<String> methods, List<String> hosts, Map<String, String> headers, String route) {
      this.paths = paths;
      this.methods = methods;
      this.hosts = hosts;
      this.headers = headers;
      this.route = route;
    }
  }

  /** {@code matchTuple} is the rule's {@code match:} key, or null; its keys' lines go to {@code keyLines}. */
  Match parse(NodeTuple matchTuple, String ctx, Map<String, Integer> keyLines) {
    List<String> paths = new ArrayList<>();
    Set<String> methods = new LinkedHashSet<>();
    List<String> hosts = new ArrayList<>();
    Map<String, String> headers = new LinkedHashMap<>();
    String route = null;
    if (matchTuple != null && !isNull(matchTuple.getValueNode())) {
      Node m = matchTuple.getValueNode();
      if (!(m instanceof MappingNode)) {
        y.problem(m, ctx + "match must be a mapping with 'path:', 'methods:', 'hosts:', 'headers:' and/or 'route:', got " + describe(m));
      } else {
        Map<String, NodeTuple> mf = y.fields((MappingNode) m, MATCH_KEYS, "in match of " + ctx.substring(0, ctx.length() - 2), "match.");
        y.recordLines(mf, "match.", keyLines);
        NodeTuple pt = mf.get("path");
        if (pt != null) {
          paths = paths(pt.getValueNode(), "match", ctx);
        }
        NodeTuple mt = mf.get("methods");
        if (mt != null) {
          methods = methods(mt.getValueNode(), "match", ctx);
        }
        NodeTuple ht = mf.get("hosts");
        if (ht != null) {
          hosts = hosts(ht.getValueNode(), "match", ctx);
        }
        NodeTuple hd = mf.get("headers");
        if (hd != null) {
          headers = headers(hd.getValueNode(), "match", ctx);
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

    return new Match(paths, methods, hosts, headers, route);
  }

  /**
   * A rule's {@code skip:} ({@code skipTuple}, or null): the requests it never counts, or null for
   * none. No {@code route}: a rule is decided at the first servlet entry point unless it needs the
   * route, and a skip must not move it (on plain servlets there is no route, and the rule would
   * count nothing); skip by path instead.
   */
  RequestConditions parseSkip(NodeTuple skipTuple, String ctx, Map<String, Integer> keyLines) {
    if (skipTuple == null) {
      return null;
    }
    Node m = skipTuple.getValueNode();
    if (!(m instanceof MappingNode) || ((MappingNode) m).getValue().isEmpty()) {
      y.problem(
          m,
          ctx + "skip must be a mapping with 'path:', 'methods:', 'hosts:' and/or 'headers:' (the requests the rule never counts), got "
              + describe(m));
      return null;
    }
    Map<String, NodeTuple> sf = y.fields((MappingNode) m, SKIP_KEYS, "in skip of " + ctx.substring(0, ctx.length() - 2), "skip.");
    y.recordLines(sf, "skip.", keyLines);
    List<String> paths = new ArrayList<>();
    Set<String> methods = new LinkedHashSet<>();
    List<String> hosts = new ArrayList<>();
    Map<String, String> headers = new LinkedHashMap<>();
    NodeTuple pt = sf.get("path");
    if (pt != null) {
      paths = paths(pt.getValueNode(), "skip", ctx);
    }
    NodeTuple mt = sf.get("methods");
    if (mt != null) {
      methods = methods(mt.getValueNode(), "skip", ctx);
    }
    NodeTuple ht = sf.get("hosts");
    if (ht != null) {
      hosts = hosts(ht.getValueNode(), "skip", ctx);
    }
    NodeTuple hd = sf.get("headers");
    if (hd != null) {
      headers = headers(hd.getValueNode(), "skip", ctx);
    }
    NodeTuple rt = sf.get("route");
    if (rt != null) {
      y.problem(
          rt.getKeyNode(),
          ctx + "skip.route is not supported: a skip is checked where the rule is decided, which for a rule without a route is before any route is known; skip by 'path:' instead");
    }
    return new RequestConditions(paths, methods, hosts, headers);
  }

  /** {@code hosts:}: one glob or a list, lower-cased; a port or a path is a mistake worth naming. */
  List<String> hosts(Node node, String block, String ctx) {
    List<String> out = new ArrayList<>();
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
      if (items.isEmpty()) {
        y.problem(node, ctx + block + ".hosts is an empty list; leave 'hosts' out to match every host");
      }
    } else {
      items = Collections.singletonList(node);
    }
    for (Node item : items) {
      String h = y.string(item, block + ".hosts", "a host name or glob such as api.example.com or *.example.com (or a list of them)", ctx);
      if (h == null) {
        continue;
      }
      h = h.trim().toLowerCase(Locale.ROOT);
      if (h.contains("://") || h.indexOf('/') >= 0) {
        y.problem(item, ctx + block + ".hosts '" + h + "' must be a host name only, without a scheme or path, such as api.example.com");
      } else if (h.indexOf(':') >= 0 && !h.startsWith("[")) {
        y.problem(item, ctx + block + ".hosts '" + h + "' must not have a port: hosts match without it, write '" + h.substring(0, h.indexOf(':')) + "'");
      } else if (h.indexOf(' ') >= 0) {
        y.problem(item, ctx + block + ".hosts '" + h + "' must not contain spaces");
      } else {
        out.add(h.endsWith(".") ? h.substring(0, h.length() - 1) : h);
      }
    }
    return out;
  }

  /** {@code headers:}: a mapping of header name to a value glob, {@code present} or {@code absent}. */
  private Map<String, String> headers(Node node, String block, String ctx) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!(node instanceof MappingNode) || ((MappingNode) node).getValue().isEmpty()) {
      y.problem(
          node,
          ctx + block + ".headers must be a mapping of header name to a value glob, 'present' or 'absent', such as { User-Agent: \"ELB-HealthChecker/*\" }, got "
              + describe(node));
      return out;
    }
    for (NodeTuple t : ((MappingNode) node).getValue()) {
      Node k = t.getKeyNode();
      String name = k instanceof ScalarNode && !isNull(k) ? ((ScalarNode) k).getValue().trim() : null;
      if (name == null || !YamlNodes.isToken(name)) {
        y.problem(k, ctx + block + ".headers: " + describe(k) + " is not a header name");
        continue;
      }
      String lower = name.toLowerCase(Locale.ROOT);
      if (out.containsKey(lower)) {
        y.problem(k, ctx + block + ".headers names '" + name + "' twice (header names are case-insensitive)");
        continue;
      }
      Node v = t.getValueNode();
      String value =
          v instanceof ScalarNode && !isNull(v) && !((ScalarNode) v).getValue().isEmpty()
              ? ((ScalarNode) v).getValue()
              : null;
      if (value == null) {
        y.problem(
            v,
            ctx + block + ".headers." + name + " must be a value glob such as \"v2*\", 'present' or 'absent', got " + describe(v));
        continue;
      }
      String keyword = value.trim().toLowerCase(Locale.ROOT);
      out.put(
          lower,
          keyword.equals(RequestConditions.PRESENT) || keyword.equals(RequestConditions.ABSENT)
              ? keyword
              : value);
    }
    return out;
  }

  List<String> paths(Node node, String block, String ctx) {
    List<String> out = new ArrayList<>();
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
      if (items.isEmpty()) {
        y.problem(node, ctx + block + ".path is an empty list; leave 'path' out to match every path");
      }
    } else {
      items = Collections.singletonList(node);
    }
    for (Node item : items) {
      String p = y.string(item, block + ".path", "a path glob starting with '/', such as /api/** (or a list of them)", ctx);
      if (p == null) {
        continue;
      }
      if (!p.startsWith("/")) {
        y.problem(item, ctx + block + ".path '" + p + "' must start with '/', for example '/" + p + "'");
      } else if (p.indexOf('?') >= 0 && p.indexOf('=') > p.indexOf('?')) {
        y.problem(item, ctx + block + ".path '" + p + "' looks like it has a query string; paths match without it");
      } else if (!GlobNormalForm.canMatch(p)) {
        y.problem(item, ctx + block + ".path '" + p + "' can never match: request paths are matched"
            + " in their normalised form (no trailing '/', '//', '.', '..', ';parameter' or escaped"
            + " letter), where it is '" + GlobNormalForm.of(p) + "'; write that instead");
      } else {
        out.add(p);
      }
    }
    return out;
  }

  Set<String> methods(Node node, String block, String ctx) {
    Set<String> out = new LinkedHashSet<>();
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
    } else if (node instanceof ScalarNode && !isNull(node)) {
      items = Collections.singletonList(node);
    } else {
      y.problem(node, ctx + block + ".methods must be a list of HTTP methods such as [GET, POST], got " + describe(node));
      return out;
    }
    for (Node item : items) {
      String m = y.string(item, "each entry of " + block + ".methods", "an HTTP method such as GET", ctx);
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
