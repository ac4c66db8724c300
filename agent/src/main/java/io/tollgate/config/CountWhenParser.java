package io.tollgate.config;

import static io.tollgate.config.YamlNodes.describe;
import static io.tollgate.config.YamlNodes.isNull;
import static io.tollgate.config.YamlNodes.suggest;

import io.tollgate.limiters.AlgorithmKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A rule's {@code count-when:} ({@link CountWhen}): one status, class or {@code failure}, or a list
 * of them; and whether the rule's algorithm can give a charge back.
 */
final class CountWhenParser {

  /**
   * The algorithms whose charge can be given back when the request ends ({@code adjust}). A
   * concurrency permit is given back at every request's end anyway: counting some outcomes only
   * means nothing there. An algorithm not listed is refused, so that one added later is refused
   * until it is known to refund.
   */
  static final Set<AlgorithmKind> REFUNDING =
      EnumSet.of(
          AlgorithmKind.TOKEN_BUCKET,
          AlgorithmKind.GCRA,
          AlgorithmKind.FIXED_WINDOW,
          AlgorithmKind.SLIDING_WINDOW,
          AlgorithmKind.SLIDING_LOG);

  private static final String EXPECTED =
      "a response status such as 401, a class such as 4xx or 5xx, 'failure' (4xx and 5xx), or a list of them such as [401, 403]";
  private static final List<String> WORDS =
      Arrays.asList(CountWhen.FAILURE, "1xx", "2xx", "3xx", "4xx", "5xx");

  private final YamlNodes y;

  CountWhenParser(YamlNodes y) {
    this.y = y;
  }

  /** The rule's {@code count-when}, or null when it has none or it is wrong (then reported). */
  CountWhen parse(NodeTuple tuple, AlgorithmKind algorithm, String ctx) {
    if (tuple == null) {
      return null;
    }
    Node node = tuple.getValueNode();
    List<Node> nodes;
    if (node instanceof SequenceNode) {
      nodes = ((SequenceNode) node).getValue();
      if (nodes.isEmpty()) {
        y.problem(node, ctx + "count-when is an empty list; list the statuses that count, such as [401, 403], or remove it to count every request");
        return null;
      }
    } else if (node instanceof ScalarNode && !isNull(node)) {
      nodes = java.util.Collections.singletonList(node);
    } else {
      y.problem(node, ctx + "count-when must be " + EXPECTED + ", got " + describe(node));
      return null;
    }
    List<String> items = new ArrayList<>();
    boolean ok = true;
    for (Node item : nodes) {
      String value = item instanceof ScalarNode && !isNull(item) ? ((ScalarNode) item).getValue() : null;
      String canonical = value == null ? null : CountWhen.item(value);
      if (canonical == null) {
        y.problem(item, ctx + problemWith(item, value));
        ok = false;
      } else {
        items.add(canonical);
      }
    }
    if (ok && !REFUNDING.contains(algorithm)) {
      y.problem(
          tuple.getKeyNode(),
          ctx + "count-when does not apply to the " + algorithm.yamlName()
              + " algorithm, which cannot give a charge back; use it with " + names(REFUNDING));
      return null;
    }
    return ok ? CountWhen.of(items) : null;
  }

  private static String problemWith(Node item, String value) {
    if (value == null) {
      return "count-when items must be statuses, classes such as 4xx, or 'failure', got "
          + describe(item);
    }
    String v = value.trim();
    if (v.matches("[0-9]+")) {
      return "count-when: " + v + " is not a response status; statuses run from 100 to 599";
    }
    if (v.matches("[0-9][xX][xX]")) {
      return "count-when: '" + v + "' is not a class of statuses; classes run from 1xx to 5xx";
    }
    String hint = suggest(v, WORDS);
    return "count-when: unknown value '" + v + "'"
        + (hint != null ? "; did you mean '" + hint + "'?" : "")
        + " (give statuses such as 401, classes such as 4xx or 5xx, or 'failure')";
  }

  private static String names(Set<AlgorithmKind> kinds) {
    List<String> names = new ArrayList<>();
    for (AlgorithmKind k : kinds) {
      names.add(k.yamlName());
    }
    return String.join(", ", names);
  }
}
