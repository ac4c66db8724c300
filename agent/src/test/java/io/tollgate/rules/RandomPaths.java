package io.tollgate.rules;

import java.util.Random;

/**
 * Random globs and paths for the property tests of how rules are found by path ({@link
 * RulePathIndexTest}, {@link RulesOnPathTest}): few segments, so that globs and paths often meet.
 */
final class RandomPaths {

  /** A glob's segments: literals, wildcards within a segment, and across segments. */
  static final String[] GLOB_SEGMENTS = {"a", "b", "c", "*", "a*", "?", "**"};
  /** A path's segments, an empty one among them. */
  static final String[] PATH_SEGMENTS = {"a", "b", "c", "ab", "", "x"};

  private RandomPaths() {}

  /** {@code count} globs, about one in {@code oneInNoPath} of them "-" (a rule with no path). */
  static String[] globs(Random random, int count, int oneInNoPath) {
    String[] globs = new String[count];
    for (int i = 0; i < count; i++) {
      globs[i] = random.nextInt(oneInNoPath) == 0 ? "-" : path(random, GLOB_SEGMENTS);
    }
    return globs;
  }

  /** A path of one to three of {@code segments}. */
  static String path(Random random, String[] segments) {
    StringBuilder path = new StringBuilder();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      path.append('/').append(segments[random.nextInt(segments.length)]);
    }
    return path.toString();
  }
}
