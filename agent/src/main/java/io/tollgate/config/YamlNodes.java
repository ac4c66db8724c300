package io.tollgate.config;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The nodes of one rules file as it is read: typed reads of YAML nodes (strings, integers,
 * durations, enumerations, mappings with their known keys) that report each problem with its line
 * and column, and the "did you mean" hints of every message. Shared by the parsers of the file's
 * sections; collects their problems in one list.
 */
final class YamlNodes {

  private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9][0-9_]*");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private final String source;
  private final Function<String, String> env;
  private final List<ConfigProblem> problems = new ArrayList<>();

  YamlNodes(String source, Function<String, String> env) {
    this.source = source;
    this.env = env;
  }

  String source() {
    return source;
  }

  /** The problems found so far, in the order found. */
  List<ConfigProblem> problems() {
    return problems;
  }

  /** How many problems were found so far: a section compares it to tell whether it added any. */
  int problemCount() {
    return problems.size();
  }

  // --- mappings ---------------------------------------------------------------------------

  /** Reads one item of a list of named entries, given its position (from 1) and the names so far. */
  interface ItemReader<T> {
    /** The item, or null when it is wrong (its problems reported). */
    T read(Node item, int index, Map<String, Node> names);
  }

  /**
   * The items of a list of named entries ({@code rules:}, {@code outbound:}): {@code tuple}'s
   * value (none when {@code tuple} or its value is null), each read by {@code reader}, the wrong
   * ones left out, in file order. A value that is not a list is reported as {@code what} + ", got
   * ...".
   */
  <T> List<T> namedItems(NodeTuple tuple, String what, ItemReader<T> reader) {
    List<T> items = new ArrayList<>();
    if (tuple == null || isNull(tuple.getValueNode())) {
      return items;
    }
    Node node = tuple.getValueNode();
    if (!(node instanceof SequenceNode)) {
      problem(node, what + ", got " + describe(node));
      return items;
    }
    Map<String, Node> names = new HashMap<>();
    int index = 0;
    for (Node item : ((SequenceNode) node).getValue()) {
      index++;
      T read = reader.read(item, index, names);
      if (read != null) {
        items.add(read);
      }
    }
    return items;
  }

  /** Finds a key without reporting anything: the first explicit occurrence, else a merged one. */
  NodeTuple findKey(MappingNode map, String key) {
    List<NodeTuple> merged = new ArrayList<>();
    for (NodeTuple t : map.getValue()) {
      if (t.getKeyNode().getTag().equals(Tag.MERGE)) {
        Node v = t.getValueNode();
        if (v instanceof MappingNode) {
          merged.addAll(((MappingNode) v).getValue());
        } else if (v instanceof SequenceNode) {
          for (Node n : ((SequenceNode) v).getValue()) {
            if (n instanceof MappingNode) {
              merged.addAll(((MappingNode) n).getValue());
            }
          }
        }
      } else if (t.getKeyNode() instanceof ScalarNode
          && key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
        return t;
      }
    }
    for (NodeTuple t : merged) {
      if (t.getKeyNode() instanceof ScalarNode && key.equals(((ScalarNode) t.getKeyNode()).getValue())) {
        return t;
      }
    }
    return null;
  }

  /**
   * The known keys of a mapping (first occurrence of each), reporting non-scalar, duplicate and
   * unknown keys. Merge keys ({@code <<: *anchor}) supply keys not written explicitly.
   */
  Map<String, NodeTuple> fields(MappingNode map, List<String> known, String where, String prefix) {
    Map<String, NodeTuple> out = new LinkedHashMap<>();
    List<NodeTuple> merged = Collections.emptyList(); // a list once a merge key is met
    boolean unknown = false;
    for (NodeTuple t : map.getValue()) {
      Node k = t.getKeyNode();
      if (k.getTag().equals(Tag.MERGE)) {
        if (!(merged instanceof ArrayList)) {
          merged = new ArrayList<>();
        }
        collectMerge(t.getValueNode(), merged);
        continue;
      }
      if (!(k instanceof ScalarNode) || isNull(k)) {
        problem(k, "keys must be plain words such as 'limit', got " + describe(k) + " " + where);
        continue;
      }
      String key = ((ScalarNode) k).getValue();
      NodeTuple first = out.get(key);
      if (first != null) {
        problem(
            k,
            "duplicate key '" + prefix + key + "' " + where + " (first given on line "
                + line(first.getKeyNode()) + "); give each key once");
        continue;
      }
      if (!known.contains(key)) {
        unknown = true;
        if (out.containsKey("\0" + key)) {
          continue; // the same unknown key again: reported once
        }
        out.put("\0" + key, t);
        problem(k, unknownKey(key, known, where));
        continue;
      }
      out.put(key, t);
    }
    for (NodeTuple t : merged) {
      Node k = t.getKeyNode();
      if (k instanceof ScalarNode && known.contains(((ScalarNode) k).getValue())) {
        out.putIfAbsent(((ScalarNode) k).getValue(), t);
      }
    }
    if (unknown) {
      out.keySet().removeIf(s -> s.startsWith("\0"));
    }
    return out;
  }

  private void collectMerge(Node value, List<NodeTuple> into) {
    if (value instanceof MappingNode) {
      into.addAll(((MappingNode) value).getValue());
    } else if (value instanceof SequenceNode) {
      for (Node n : ((SequenceNode) value).getValue()) {
        if (n instanceof MappingNode) {
          into.addAll(((MappingNode) n).getValue());
        } else {
          problem(n, "'<<' merges mappings only, got " + describe(n));
        }
      }
    } else {
      problem(value, "'<<' merges mappings only, got " + describe(value));
    }
  }

  private String unknownKey(String key, List<String> known, String where) {
    StringBuilder sb = new StringBuilder("unknown key '").append(key).append("' ").append(where);
    // a key of match: written one level up is a misplacement, not a misspelling of a rule key
    boolean matchKeyInRule = known == RuleParser.RULE_KEYS && MatchParser.MATCH_KEYS.contains(key);
    String hint = matchKeyInRule ? null : suggest(key, known);
    if (hint != null) {
      sb.append("; did you mean '").append(hint).append("'?");
    } else if (known == RulesFileParser.TOP_LEVEL_KEYS
        && (RuleParser.RULE_KEYS.contains(key) || MatchParser.MATCH_KEYS.contains(key))) {
      sb.append("; '").append(key).append("' belongs inside a rule, under 'rules:'");
    } else if (matchKeyInRule) {
      sb.append("; '").append(key).append("' belongs under 'match:' (or 'skip:')");
    } else {
      sb.append(" (allowed: ").append(String.join(", ", known)).append(")");
    }
    return sb.toString();
  }

  void recordLines(Map<String, NodeTuple> fields, String prefix, Map<String, Integer> lines) {
    boolean noPrefix = prefix.isEmpty(); // a rule's own keys: not a copy of each per rule
    for (Map.Entry<String, NodeTuple> e : fields.entrySet()) {
      lines.put(noPrefix ? e.getKey() : prefix + e.getKey(), line(e.getValue().getKeyNode()));
    }
  }

  // --- scalars ----------------------------------------------------------------------------

  String string(Node node, String what, String expected, String ctx) {
    if (node instanceof ScalarNode && !isNull(node)) {
      String v = ((ScalarNode) node).getValue();
      if (!v.trim().isEmpty()) {
        return v;
      }
    }
    problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
    return null;
  }

  Long positive(Node node, String what, String ctx) {
    return integer(node, what, "a positive integer", 1, Long.MAX_VALUE, ctx);
  }

  Long integer(Node node, String what, String expected, long min, long max, String ctx) {
    if (!(node instanceof ScalarNode) || isNull(node)) {
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
      return null;
    }
    String v = ((ScalarNode) node).getValue().trim();
    if (isShortDigits(v)) {
      // the common case (limit: 100), without a matcher and a BigInteger per number
      long n = Long.parseLong(v);
      if (n >= min && n <= max) {
        return n;
      }
    }
    if (!INTEGER.matcher(v).matches()) {
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
      return null;
    }
    BigInteger n = new BigInteger(v.replace("_", "").replace("+", ""));
    if (n.compareTo(BigInteger.valueOf(min)) < 0) {
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
      return null;
    }
    if (n.compareTo(LONG_MAX) > 0 || n.longValue() > max) {
      problem(node, ctx + what + " must be " + expected + ", got " + describe(node) + ", which is too large");
      return null;
    }
    return n.longValue();
  }

  /** 1 to 18 ASCII digits: a long, whatever they are. */
  private static boolean isShortDigits(String v) {
    int n = v.length();
    if (n == 0 || n > 18) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = v.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  Boolean bool(Node node, String what, String ctx) {
    if (node instanceof ScalarNode && !isNull(node)) {
      String v = ((ScalarNode) node).getValue().trim();
      if (v.equalsIgnoreCase("true")) {
        return Boolean.TRUE;
      }
      if (v.equalsIgnoreCase("false")) {
        return Boolean.FALSE;
      }
    }
    problem(node, ctx + what + " must be true or false, got " + describe(node));
    return null;
  }

  Long duration(Node node, String what, String ctx) {
    if (node instanceof ScalarNode && !isNull(node)) {
      String v = ((ScalarNode) node).getValue();
      try {
        long nanos = Durations.parseNanos(v);
        if (nanos > 0) {
          return nanos;
        }
        problem(node, ctx + what + " must be longer than zero, got '" + v + "'");
        return null;
      } catch (IllegalArgumentException e) {
        if (e.getCause() instanceof ArithmeticException || e.getCause() instanceof NumberFormatException) {
          problem(node, ctx + what + " '" + v.trim() + "' is too long; write a shorter duration such as 1d");
          return null;
        }
        String why = v.trim().chars().allMatch(Character::isDigit) ? " (the unit is missing)" : "";
        problem(
            node,
            ctx + what + " must be a duration, got '" + v + "'" + why + "; write "
                + Durations.ACCEPTED_FORMS);
        return null;
      }
    }
    problem(node, ctx + what + " must be a duration such as 500ms, 10s, 1m, 1h or 1d, got " + describe(node));
    return null;
  }

  /** An enum constant as the rules file spells it: lower case, {@code DRAFT_8} as {@code draft-8}. */
  private static String spelling(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  <E extends Enum<E>> E enumValue(NodeTuple tuple, String what, E[] values, String ctx) {
    if (tuple == null) {
      return null;
    }
    Node node = tuple.getValueNode();
    List<String> names = new ArrayList<>();
    for (E e : values) {
      names.add(spelling(e));
    }
    if (node instanceof ScalarNode && !isNull(node)) {
      String v = ((ScalarNode) node).getValue().trim().toLowerCase(Locale.ROOT);
      for (E e : values) {
        if (spelling(e).equals(v)) {
          return e;
        }
      }
      String hint = suggest(v, names);
      problem(
          node,
          ctx + what + " must be one of " + String.join(", ", names) + ", got " + describe(node)
              + (hint != null ? "; did you mean '" + hint + "'?" : ""));
      return null;
    }
    problem(node, ctx + what + " must be one of " + String.join(", ", names) + ", got " + describe(node));
    return null;
  }

  String expand(String raw, Node node, String what) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    boolean ok = true;
    while (i < raw.length()) {
      int start = raw.indexOf("${", i);
      if (start < 0) {
        out.append(raw, i, raw.length());
        break;
      }
      out.append(raw, i, start);
      int end = raw.indexOf('}', start + 2);
      if (end < 0) {
        problem(node, what + ": '${' is not closed by '}'; write ${NAME} to use an environment variable");
        return null;
      }
      String inner = raw.substring(start + 2, end);
      String fallback = null;
      int sep = inner.indexOf(":-");
      String name = sep < 0 ? inner : inner.substring(0, sep);
      if (sep >= 0) {
        fallback = inner.substring(sep + 2);
      }
      if (!ENV_NAME.matcher(name).matches()) {
        problem(node, what + ": '${" + inner + "}' is not a valid environment variable reference; write ${NAME} or ${NAME:-default}");
        ok = false;
      } else {
        String value = env.apply(name);
        if (value == null || (value.isEmpty() && fallback != null)) {
          value = fallback;
        }
        if (value == null) {
          problem(node, what + " uses environment variable " + name + ", which is not set");
          ok = false;
        } else {
          out.append(value);
        }
      }
      i = end + 1;
    }
    return ok ? out.toString() : null;
  }

  List<Node> listItems(Node node, String what, String expected, String ctx) {
    if (node instanceof SequenceNode) {
      return ((SequenceNode) node).getValue();
    }
    if (node instanceof ScalarNode && !isNull(node)) {
      return Collections.singletonList(node);
    }
    problem(node, ctx + what + " must be " + expected + ", got " + describe(node));
    return Collections.emptyList();
  }

  /**
   * Whether the mapping has an unknown key that the hints take for one of {@code targets}: the
   * unknown key is reported already, and "X is missing" would only repeat it.
   */
  boolean misspelt(MappingNode map, List<String> known, String... targets) {
    for (NodeTuple t : map.getValue()) {
      if (t.getKeyNode() instanceof ScalarNode) {
        String k = ((ScalarNode) t.getKeyNode()).getValue();
        if (!known.contains(k) && Arrays.asList(targets).contains(suggest(k, known))) {
          return true;
        }
      }
    }
    return false;
  }

  // --- problems ---------------------------------------------------------------------------

  void syntaxProblem(MarkedYAMLException e) {
    Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    StringBuilder sb = new StringBuilder("invalid YAML: ");
    String problem = e.getProblem() == null ? "" : e.getProblem().trim();
    if (problem.startsWith("but found another document")) {
      problems.add(
          new ConfigProblem(
              source,
              mark == null ? 0 : mark.getLine() + 1,
              mark == null ? 0 : mark.getColumn() + 1,
              "invalid YAML: a second document starts here ('---'); a rules file holds one document"));
      return;
    }
    if (problem.contains("\\t") || problem.contains("\t")) {
      problems.add(
          new ConfigProblem(
              source,
              mark == null ? 0 : mark.getLine() + 1,
              mark == null ? 0 : mark.getColumn() + 1,
              "invalid YAML: a tab character here; YAML does not allow tabs for indentation, use spaces"));
      return;
    }
    sb.append(problem);
    if (e.getContext() != null) {
      sb.append(" (").append(e.getContext().trim());
      if (e.getContextMark() != null && e.getProblemMark() != null
          && e.getContextMark().getLine() != e.getProblemMark().getLine()) {
        sb.append(" that starts on line ").append(e.getContextMark().getLine() + 1);
      }
      sb.append(")");
    }
    if (e.getContext() != null && e.getContext().contains("flow")) {
      sb.append("; inside [ ] or { }, quote values that contain '?', ',', ':', '[', ']', '{' or '}'");
    } else if (problem.contains("mapping values are not allowed")) {
      sb.append("; check the indentation, and quote values that contain ': '");
    } else if (problem.contains("expected <block end>")) {
      sb.append("; check the indentation of this line against the lines above");
    }
    problems.add(
        new ConfigProblem(
            source,
            mark == null ? 0 : mark.getLine() + 1,
            mark == null ? 0 : mark.getColumn() + 1,
            sb.toString()));
  }

  void problem(Node node, String message) {
    Mark m = node == null ? null : node.getStartMark();
    problems.add(
        new ConfigProblem(
            source, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1, message));
  }

  static int line(Node node) {
    Mark m = node.getStartMark();
    return m == null ? 0 : m.getLine() + 1;
  }

  static boolean isNull(Node node) {
    return node instanceof ScalarNode
        && (node.getTag().equals(Tag.NULL)
            && ((ScalarNode) node).getValue().trim().matches("|~|null|Null|NULL"));
  }

  static String describe(Node node) {
    if (node == null || isNull(node)) {
      return "nothing";
    }
    if (node instanceof SequenceNode) {
      return "a list";
    }
    if (node instanceof MappingNode) {
      return "a mapping";
    }
    String v = ((ScalarNode) node).getValue();
    if (v.trim().isEmpty()) {
      return "an empty string";
    }
    if (v.length() > 60) {
      v = v.substring(0, 57) + "...";
    }
    return "'" + v + "'";
  }

  static List<String> lower(List<String> words) {
    List<String> out = new ArrayList<>();
    for (String w : words) {
      out.add(w.toLowerCase(Locale.ROOT));
    }
    return out;
  }

  // --- "did you mean" ---------------------------------------------------------------------

  /** The closest of {@code candidates} to {@code word}, or null: see {@link Suggestions}. */
  static String suggest(String word, List<String> candidates) {
    return Suggestions.closest(word, candidates);
  }

  /** RFC 9110 token: one or more tchar. */
  static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
