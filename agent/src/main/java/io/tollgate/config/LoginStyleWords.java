package io.tollgate.config;

import java.util.Locale;

/**
 * Whether a path (or a route) looks like a login page's: it contains one of {@link #WORDS} once
 * lower-cased and rid of {@code -} and {@code _} ({@code /sign-in}, {@code /j_security_check},
 * {@code /oauth/token}). Rules on such paths send no quota headers unless told to: an attacker
 * should not learn how many tries remain.
 *
 * <p>One pass over the path, looking up the words that start with each character, without the
 * lower-cased copies and the search per word of the plain expression: the agent asks this of
 * every rule when it builds it, 10,000 times for a long file, mostly before the JIT has compiled
 * the search. A path with any character outside ASCII takes the plain expression, since
 * lower-casing such a character may give ASCII letters (the Kelvin sign gives {@code k}).
 */
final class LoginStyleWords {

  static final String[] WORDS = {
    "login", "signin", "otp", "password", "passwd", "token", "mfa", "2fa", "auth", "securitycheck"
  };

  /** {@link #WORDS} by their first character, which is ASCII. */
  private static final String[][] BY_FIRST = byFirst();

  private LoginStyleWords() {}

  static boolean in(String path) {
    int n = path.length();
    char[] folded = new char[n];
    int length = 0;
    for (int i = 0; i < n; i++) {
      char c = path.charAt(i);
      if (c >= 0x80) {
        return inPlainly(path);
      }
      if (c != '-' && c != '_') {
        folded[length++] = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
      }
    }
    for (int i = 0; i < length; i++) {
      String[] words = BY_FIRST[folded[i]];
      if (words != null) {
        for (String word : words) {
          if (startsAt(folded, length, i, word)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The definition itself, for paths that are not ASCII. */
  static boolean inPlainly(String path) {
    String lower = path.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    for (String word : WORDS) {
      if (lower.contains(word)) {
        return true;
      }
    }
    return false;
  }

  private static boolean startsAt(char[] text, int length, int at, String word) {
    if (at + word.length() > length) {
      return false;
    }
    for (int j = 1; j < word.length(); j++) {
      if (text[at + j] != word.charAt(j)) {
        return false;
      }
    }
    return true;
  }

  private static String[][] byFirst() {
    String[][] table = new String[128][];
    for (String word : WORDS) {
      char first = word.charAt(0);
      String[] before = table[first] == null ? new String[0] : table[first];
      String[] after = java.util.Arrays.copyOf(before, before.length + 1);
      after[before.length] = word;
      table[first] = after;
    }
    return table;
  }
}
