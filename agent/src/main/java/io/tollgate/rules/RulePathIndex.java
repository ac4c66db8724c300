package io.tollgate.rules;

import io.tollgate.config.PathGlob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which rules a request's path may match, so that a file of thousands of rules (one per tenant,
 * per partner, per route) is not checked rule by rule on every request.
 *
 * <p>A tree of the literal segments the rules' path globs start with ({@link
 * PathGlob#literalPrefix()}): {@code /tenants/t5/**} sits under {@code tenants} then {@code t5},
 * {@code /v*}{@code /items} and a rule on every path at the root. A path walks down the tree by its
 * own segments and collects the rules it passes: every rule whose globs could match it, and a few
 * that the rule's own matching then turns down ({@code /tenants/t5/x} collects a rule on {@code
 * /tenants/t5} exactly). So the index only narrows; each candidate is still matched in full.
 *
 * <p>Candidates come in file order, as the rules are applied.
 */
final class RulePathIndex {

  private static final int[] NONE = new int[0];

  private final Node root;

  private RulePathIndex(Node root) {
    this.root = root;
  }

  /** The index of {@code rules}, each given by its position in the file. */
  static RulePathIndex of(Rule[] rules) {
    Node root = new Node();
    for (int i = 0; i < rules.length; i++) {
      PathGlob[] globs = rules[i].pathGlobs();
      if (globs.length == 0) {
        root.add(i);
        continue;
      }
      for (PathGlob glob : globs) {
        Node node = root;
        for (String segment : glob.literalPrefix()) {
          node = node.child(segment);
        }
        node.add(i);
      }
    }
    root.freeze();
    return new RulePathIndex(root);
  }

  /**
   * The positions of the rules that may match {@code normalizedPath}, ascending; a shared array
   * when one node holds them all, which the caller must not change.
   */
  int[] candidates(String normalizedPath) {
    int[] found = root.rules;
    List<int[]> more = null;
    Node node = root;
    if (normalizedPath != null && !normalizedPath.isEmpty() && normalizedPath.charAt(0) == '/') {
      // split as PathGlob splits a glob: between slashes, after the leading one
      int start = 1;
      while (node.children != null) {
        int end = normalizedPath.indexOf('/', start);
        String segment =
            end < 0 ? normalizedPath.substring(start) : normalizedPath.substring(start, end);
        node = node.children.get(segment);
        if (node == null) {
          break;
        }
        if (node.rules.length > 0) {
          if (found.length == 0) {
            found = node.rules;
          } else {
            if (more == null) {
              more = new ArrayList<>(4);
              more.add(found);
            }
            more.add(node.rules);
          }
        }
        if (end < 0) {
          break;
        }
        start = end + 1;
      }
    }
    return more == null ? found : merged(more);
  }

  /** The union of ascending arrays, ascending and without repeats. */
  private static int[] merged(List<int[]> lists) {
    int total = 0;
    for (int[] list : lists) {
      total += list.length;
    }
    int[] all = new int[total];
    int n = 0;
    for (int[] list : lists) {
      System.arraycopy(list, 0, all, n, list.length);
      n += list.length;
    }
    Arrays.sort(all);
    int distinct = 0;
    for (int i = 0; i < all.length; i++) {
      if (i == 0 || all[i] != all[i - 1]) {
        all[distinct++] = all[i];
      }
    }
    return distinct == all.length ? all : Arrays.copyOf(all, distinct);
  }

  /** The rules whose globs' literal prefix ends here, and the segments below. */
  private static final class Node {
    Map<String, Node> children;
    private List<Integer> building = new ArrayList<>(1);
    int[] rules = NONE;

    Node child(String segment) {
      if (children == null) {
        children = new HashMap<>();
      }
      return children.computeIfAbsent(segment, s -> new Node());
    }

    void add(int rule) {
      // a rule with two globs under one node is listed once
      if (building.isEmpty() || building.get(building.size() - 1).intValue() != rule) {
        building.add(rule);
      }
    }

    void freeze() {
      // a loop, not a stream: once per node, and a file of 10,000 rules has as many nodes
      int n = building.size();
      rules = n == 0 ? NONE : new int[n];
      for (int i = 0; i < n; i++) {
        rules[i] = building.get(i);
      }
      building = null;
      if (children != null) {
        for (Node child : children.values()) {
          child.freeze();
        }
      }
    }
  }
}
