package io.tollgate.config;

import java.util.Collection;
import java.util.Locale;

/**
 * The "did you mean" of every error about a misspelt name: a rules file's keys and values, and the
 * agent's options. One measure for all of them, so that a typo gets the same hint wherever it is
 * made.
 */
public final class Suggestions {

  private Suggestions() {}

  /**
   * The closest of {@code candidates} to {@code word} within a small edit distance (one for
   * words of up to 3 letters, two up to 8, three beyond), or null. {@code word} is compared in
   * kebab-case, so {@code retryAfter}, {@code retry_after} and {@code RETRY-AFTER} all find
   * {@code retry-after}.
   */
  public static String closest(String word, Collection<String> candidates) {
    String w = kebabCase(word);
    int allowed = w.length() <= 3 ? 1 : w.length() <= 8 ? 2 : 3;
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = editDistance(w, c.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    return bestDistance <= allowed ? best : null;
  }

  /** lowerCamel, snake_case and UPPER spellings of a key, as kebab-case. */
  private static String kebabCase(String word) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(word.charAt(i - 1))) {
        sb.append('-');
      }
      sb.append(c == '_' || c == ' ' ? '-' : Character.toLowerCase(c));
    }
    return sb.toString();
  }

  /** Levenshtein's distance: the fewest one-letter insertions, deletions and changes. */
  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
