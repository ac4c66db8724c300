package io.tollgate.config;

import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The tags of a rules file's plain scalars: null ({@code ~}, {@code null}, nothing) and the merge
 * key {@code <<}, the only two the parsers look at; every other scalar is a string, which each
 * parser reads as its setting needs ({@code 100}, {@code true}, {@code 1m}).
 *
 * <p>SnakeYAML's own resolver matches every plain scalar against the regular expressions of YAML
 * 1.1's booleans, integers, floats and timestamps, and against an empty-string pattern: a file of
 * 10,000 rules has 70,000 such scalars, and this was a tenth of its load. The answers for null and
 * merge are SnakeYAML's (the same spellings and the same length limit), so no node reads
 * differently.
 */
final class NullAndMergeResolver extends Resolver {

  @Override
  protected void addImplicitResolvers() {
    // none: resolve answers null and merge itself, without regular expressions
  }

  @Override
  public Tag resolve(NodeId kind, String value, boolean implicit) {
    if (kind == NodeId.scalar && implicit) {
      return isNull(value) ? Tag.NULL : value.equals("<<") ? Tag.MERGE : Tag.STR;
    }
    return super.resolve(kind, value, implicit);
  }

  /** SnakeYAML's {@code Resolver.NULL} and {@code Resolver.EMPTY}, without a matcher. */
  private static boolean isNull(String value) {
    switch (value) {
      case "":
      case "~":
      case "null":
      case "Null":
      case "NULL":
      case " ":
        return true;
      default:
        return false;
    }
  }
}
