package io.tollgate.config;

import static io.tollgate.config.YamlNodes.isToken;
import static io.tollgate.config.YamlNodes.suggest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** A rule's {@code key:} and {@code key-fallback:}: the parts a request's key is made of. */
final class KeyParser {

  static final List<String> KEY_PARTS_SIMPLE = Arrays.asList("ip", "global", "principal", "route");
  static final List<String> KEY_PARTS_NAMED = Arrays.asList("header", "param", "query", "form", "cookie");

  private static final String ALLOWED =
      "ip, global, principal, route, header:NAME, param:NAME, query:NAME, form:NAME, cookie:NAME";
  /** What a key part must be, in the message of one that is not a string; a constant, not made per part. */
  private static final String EXPECTED = "one of " + ALLOWED + " (or a list of them)";

  private final YamlNodes y;

  KeyParser(YamlNodes y) {
    this.y = y;
  }

  /** {@code key:} ({@code keyTuple}, or null): its parts; {@code [ip]} when not given or wrong. */
  List<String> key(NodeTuple keyTuple, String ctx) {
    List<String> parts = keyTuple == null ? null : parts(keyTuple.getValueNode(), ctx);
    return parts == null ? Collections.singletonList("ip") : parts;
  }

  /** {@code key-fallback:}, which needs a {@code key:} to fall back from; null when none. */
  List<String> fallback(NodeTuple fallbackTuple, NodeTuple keyTuple, String ctx) {
    if (fallbackTuple == null) {
      return null;
    }
    List<String> fallback = parts(fallbackTuple.getValueNode(), ctx);
    if (fallback != null && keyTuple == null) {
      y.problem(fallbackTuple.getKeyNode(), ctx + "key-fallback needs a key to fall back from;"
          + " add key: (for example key: header:X-Api-Key)");
      return null;
    }
    return fallback;
  }

  /** A key or key fallback: one part or a list of them, normalised; null when wrong. */
  private List<String> parts(Node node, String ctx) {
    List<Node> items;
    if (node instanceof SequenceNode) {
      items = ((SequenceNode) node).getValue();
      if (items.isEmpty()) {
        y.problem(node, ctx + "key is an empty list; name at least one part such as ip, or leave 'key' out for ip");
        return null;
      }
    } else {
      items = Collections.singletonList(node);
    }
    List<String> out = new ArrayList<>();
    boolean ok = true;
    for (Node item : items) {
      String raw = y.string(item, "key", EXPECTED, ctx);
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
          y.problem(item, ctx + "key part '" + type + "' takes no name, got '" + raw + "'");
        } else {
          normalized = type;
        }
      } else if (KEY_PARTS_NAMED.contains(type)) {
        if (name == null || name.isEmpty()) {
          y.problem(
              item,
              ctx + "key part '" + raw + "' needs a name after the colon, for example '"
                  + type + ":" + (type.equals("header") ? "X-Api-Key" : type.equals("cookie") ? "session" : "username") + "'");
        } else if (!isToken(name)) {
          y.problem(
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
        y.problem(
            item,
            ctx + "unknown key part '" + raw + "'"
                + (hint != null ? "; did you mean '" + (KEY_PARTS_NAMED.contains(hint) ? hint + ":NAME" : hint) + "'?" : "")
                + " (allowed: " + ALLOWED + ")");
      }
      if (normalized == null) {
        ok = false;
      } else if (out.contains(normalized)) {
        y.problem(item, ctx + "key part '" + normalized + "' is listed twice");
        ok = false;
      } else {
        out.add(normalized);
      }
    }
    if (ok && out.contains("global") && out.size() > 1) {
      y.problem(node, ctx + "key part 'global' means one shared limit for everyone and cannot be combined with other parts");
      ok = false;
    }
    return ok ? out : null;
  }
}
