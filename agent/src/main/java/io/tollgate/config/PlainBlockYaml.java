package io.tollgate.config;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The nodes of a rules file written in the plain subset of YAML that long generated files use
 * (indented {@code key: value} lines, {@code - } items, one-line {@code [a, b]} lists of plain
 * words, whole-line comments), read in one pass over the text; null for any other text, which
 * SnakeYAML then reads as always.
 *
 * <p>SnakeYAML's scanner, parser and composer were half of {@code validate}'s main thread on a
 * file of 10,000 rules and ~110 MB of its allocations (a token, an event, marks and a node per
 * scalar; a copy of the read window per 1,024 characters), for text of which every line is
 * {@code key: value}. The nodes read here are the ones SnakeYAML composes from the same text,
 * with the same classes, tags (from the same {@link Resolver}), values and start marks (line and
 * column: every message's position), so that no parser, and no message, can tell them apart
 * ({@code PlainBlockYamlTest} composes both). Only the start marks' line, column and index are
 * set: nothing reads the end marks, snippets or styles of a rules file's nodes.
 *
 * <p>What is not read here, and left to SnakeYAML: anything but printable ASCII (a tab, a
 * carriage return, a byte order mark, any other character), quotes, anchors, aliases, merges,
 * tags, flow mappings, block scalars, documents markers, a value continued on the next line, an
 * empty value, a comment after a value, trailing spaces, a value with a space or a character that
 * is special somewhere in YAML, and every error: a file SnakeYAML would refuse is never read here.
 */
final class PlainBlockYaml {

  /** SnakeYAML refuses deeper nesting (LoaderOptions' default); far deeper than any rules file. */
  private static final int MAX_DEPTH = 40;
  private static final int MAX_KEY_LENGTH = 128;
  private static final int[] NO_SNIPPET = new int[0];
  private static final String MARK_NAME = "'reader'";
  private static final int MAX_SHARED_LENGTH = 24;

  /** Thrown to leave a text that is not in the subset; without a stack trace, it costs nothing. */
  private static final class NotPlain extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotPlain() {
      super(null, null, false, false);
    }
  }

  private static final NotPlain NOT_PLAIN = new NotPlain();

  private final String text;
  /**
   * The text's characters: read through an array, not {@code String.charAt} (four calls a
   * character until the JIT inlines them; a load reads every character of the file once or
   * twice, mostly before the JIT has compiled these methods).
   */
  private final char[] chars;
  private final Resolver resolver;
  /** The lines with content (not blank, not a comment): their start offset, number and indent. */
  private int[] starts = new int[256];
  private int[] ends = new int[256];
  private int[] numbers = new int[256];
  private int[] indents = new int[256];
  private int count;
  /** Short scalars read lately, by hash: see {@link #value}. */
  private final String[] recent = new String[512];
  /** The line being read. */
  private int pos;
  private int depth;

  private PlainBlockYaml(String text, Resolver resolver) {
    this.text = text;
    this.chars = text.toCharArray();
    this.resolver = resolver;
  }

  /**
   * The root node of {@code text} as SnakeYAML composes it with {@code resolver}, or null when
   * the text is not in the subset (or is longer than {@code codePointLimit}, which SnakeYAML
   * refuses).
   */
  static Node read(String text, Resolver resolver, int codePointLimit) {
    if (text.length() > codePointLimit) {
      return null;
    }
    PlainBlockYaml yaml = new PlainBlockYaml(text, resolver);
    try {
      yaml.splitLines();
      if (yaml.count == 0) {
        return null;
      }
      Node root = yaml.block(yaml.indents[0]);
      return yaml.pos == yaml.count ? root : null;
    } catch (NotPlain e) {
      return null;
    }
  }

  private void splitLines() {
    int n = text.length();
    int lineStart = 0;
    int number = 0;
    while (lineStart <= n) {
      int i = lineStart;
      while (i < n && chars[i] == ' ') {
        i++;
      }
      int end = i;
      while (end < n && chars[end] != '\n') {
        char c = chars[end];
        if (c < 0x20 || c > 0x7e) {
          throw NOT_PLAIN; // a tab, a carriage return, anything not printable ASCII
        }
        end++;
      }
      if (i < end && chars[i] != '#') {
        add(lineStart, i - lineStart, end, number);
      }
      number++;
      lineStart = end + 1;
    }
  }

  private void add(int lineStart, int indent, int end, int number) {
    if (count == starts.length) {
      int size = count * 2;
      starts = java.util.Arrays.copyOf(starts, size);
      ends = java.util.Arrays.copyOf(ends, size);
      numbers = java.util.Arrays.copyOf(numbers, size);
      indents = java.util.Arrays.copyOf(indents, size);
    }
    starts[count] = lineStart;
    ends[count] = end;
    numbers[count] = number;
    indents[count] = indent;
    count++;
  }

  /** A block mapping or sequence whose first line is the current one, at column {@code col}. */
  private Node block(int col) {
    if (isItem(pos, col)) {
      return sequence(col);
    }
    return mapping(col);
  }

  /** Whether line {@code line} holds {@code - } at column {@code col}. */
  private boolean isItem(int line, int col) {
    int at = starts[line] + col;
    return at + 1 < ends[line] && chars[at] == '-' && chars[at + 1] == ' ';
  }

  private MappingNode mapping(int col) {
    enter();
    Mark start = mark(pos, col);
    List<NodeTuple> tuples = new ArrayList<>();
    entry(col, tuples);
    while (pos < count && indents[pos] == col) {
      if (isItem(pos, col)) {
        throw NOT_PLAIN;
      }
      entry(col, tuples);
    }
    leave();
    return new MappingNode(resolver.resolve(NodeId.mapping, null, true), true, tuples, start, null,
        DumperOptions.FlowStyle.BLOCK);
  }

  /** {@code key: value} at column {@code col} of the current line, with what is nested under it. */
  private void entry(int col, List<NodeTuple> tuples) {
    int line = pos;
    int keyStart = starts[line] + col;
    int end = ends[line];
    int colon = keyEnd(keyStart, end);
    if (colon < 0) {
      throw NOT_PLAIN;
    }
    Node key = scalar(line, keyStart, colon);
    Node value;
    if (colon + 1 == end) {
      pos++;
      if (pos < count && indents[pos] > col) {
        value = block(indents[pos]);
      } else if (pos < count && indents[pos] == col && isItem(pos, col)) {
        value = sequence(col); // a list at the key's own indentation
      } else {
        throw NOT_PLAIN; // an empty value
      }
    } else {
      int valueStart = colon + 1;
      while (valueStart < end && chars[valueStart] == ' ') {
        valueStart++;
      }
      if (valueStart == colon + 1 || valueStart == end) {
        throw NOT_PLAIN;
      }
      value = chars[valueStart] == '['
          ? flowSequence(line, valueStart, end)
          : plainValue(line, valueStart, end);
      pos++;
    }
    tuples.add(new NodeTuple(key, value));
  }

  /** The offset of the colon ending a plain key that starts at {@code from}, or -1. */
  private int keyEnd(int from, int end) {
    int i = from;
    if (i >= end || !isKeyStart(chars[i])) {
      return -1;
    }
    while (i < end && i - from <= MAX_KEY_LENGTH && isKeyPart(chars[i])) {
      i++;
    }
    if (i >= end || chars[i] != ':' || i - from > MAX_KEY_LENGTH) {
      return -1;
    }
    return i + 1 == end || chars[i + 1] == ' ' ? i : -1;
  }

  /** Items {@code - ...} at column {@code col}, from the current line on. */
  private SequenceNode sequence(int col) {
    enter();
    Mark start = mark(pos, col);
    List<Node> items = new ArrayList<>();
    while (pos < count && indents[pos] == col && isItem(pos, col)) {
      int line = pos;
      int at = starts[line] + col + 1;
      int end = ends[line];
      while (at < end && chars[at] == ' ') {
        at++;
      }
      if (at == end) {
        throw NOT_PLAIN;
      }
      if (keyEnd(at, end) >= 0) {
        items.add(mapping(at - starts[line]));
      } else if (chars[at] == '[' || chars[at] == '-') {
        throw NOT_PLAIN; // a list in a list: left to SnakeYAML
      } else {
        items.add(plainValue(line, at, end));
        pos++;
      }
    }
    if (pos < count && indents[pos] > col) {
      throw NOT_PLAIN;
    }
    leave();
    return new SequenceNode(resolver.resolve(NodeId.sequence, null, true), true, items, start, null,
        DumperOptions.FlowStyle.BLOCK);
  }

  /** {@code [a, b]} from {@code from} to the end of the line: plain words, no colons. */
  private SequenceNode flowSequence(int line, int from, int end) {
    enter();
    Mark start = mark(line, from - starts[line]);
    List<Node> items = new ArrayList<>();
    int i = skipSpaces(from + 1, end);
    if (i < end && chars[i] == ']') {
      i++;
    } else {
      while (true) {
        int itemStart = i;
        if (i >= end || !isPlainStart(chars[i])) {
          throw NOT_PLAIN;
        }
        while (i < end && isFlowPart(chars[i])) {
          i++;
        }
        items.add(scalar(line, itemStart, i));
        i = skipSpaces(i, end);
        if (i < end && chars[i] == ',') {
          i = skipSpaces(i + 1, end);
        } else if (i < end && chars[i] == ']') {
          i++;
          break;
        } else {
          throw NOT_PLAIN;
        }
      }
    }
    if (i != end) {
      throw NOT_PLAIN;
    }
    leave();
    return new SequenceNode(resolver.resolve(NodeId.sequence, null, true), true, items, start, null,
        DumperOptions.FlowStyle.FLOW);
  }

  private int skipSpaces(int i, int end) {
    while (i < end && chars[i] == ' ') {
      i++;
    }
    return i;
  }

  /** A plain scalar from {@code from} to the end of the line. */
  private Node plainValue(int line, int from, int end) {
    char first = chars[from];
    if (!isPlainStart(first)
        && !(first == '-' && from + 1 < end && isPlainStart(chars[from + 1]))) {
      throw NOT_PLAIN;
    }
    for (int i = from + 1; i < end; i++) {
      char c = chars[i];
      if (c == ':') {
        // ': ' would start a mapping, and a colon that ends the line an empty value
        if (i + 1 == end || !isBlockPart(chars[i + 1])) {
          throw NOT_PLAIN;
        }
      } else if (!isBlockPart(c)) {
        throw NOT_PLAIN;
      }
    }
    return scalar(line, from, end);
  }

  private ScalarNode scalar(int line, int from, int end) {
    String value = value(from, end);
    Mark start = mark(line, from - starts[line]);
    return new ScalarNode(resolver.resolve(NodeId.scalar, value, true), true, value, start, null,
        DumperOptions.ScalarStyle.PLAIN);
  }

  /**
   * The text from {@code from} to {@code end}: the same string as a recent equal one when short,
   * since a long file repeats its keys and most of its values on every rule ({@code name}, {@code
   * key}, {@code ip}, {@code 1m}), and the rules keep them (as their keys' lines, their values).
   */
  private String value(int from, int end) {
    int length = end - from;
    if (length > MAX_SHARED_LENGTH) {
      return text.substring(from, end);
    }
    int hash = 0;
    for (int i = from; i < end; i++) {
      hash = 31 * hash + chars[i];
    }
    int slot = (hash ^ (hash >>> 11)) & (recent.length - 1);
    String value = recent[slot];
    if (value == null || value.length() != length || !text.regionMatches(from, value, 0, length)) {
      value = text.substring(from, end);
      recent[slot] = value;
    }
    return value;
  }

  private Mark mark(int line, int col) {
    return new Mark(MARK_NAME, starts[line] + col, numbers[line], col, NO_SNIPPET, 0);
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw NOT_PLAIN;
    }
  }

  private void leave() {
    depth--;
  }

  private static boolean isKeyStart(char c) {
    return isAlphanumeric(c) || c == '_';
  }

  private static boolean isKeyPart(char c) {
    return isAlphanumeric(c) || c == '_' || c == '-' || c == '.';
  }

  /** A character that starts a plain scalar anywhere (none of YAML's indicators). */
  private static boolean isPlainStart(char c) {
    return isAlphanumeric(c) || c == '_' || c == '.' || c == '/' || c == '+' || c == '~';
  }

  /** A character inside a plain word of a flow list (no colon, no indicator of flow). */
  private static boolean isFlowPart(char c) {
    return isPlainStart(c) || c == '-' || c == '*' || c == '@' || c == '=';
  }

  /** A character inside a plain scalar of a block (a colon is checked apart). */
  private static boolean isBlockPart(char c) {
    return isFlowPart(c);
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
