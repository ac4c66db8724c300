package io.tollgate.rules;

import java.util.Locale;

/**
 * A glob on a header value or a host name: {@code *} is any run of characters (dots included, so
 * {@code *.example.com} matches {@code a.b.example.com} but not {@code example.com}), {@code ?} one
 * character, everything else itself. No character classes: a rules file is written by people who
 * should not have to escape the {@code [} of a user agent.
 */
public final class ValueGlob {

  private final String pattern;
  private final boolean ignoreCase;

  private ValueGlob(String pattern, boolean ignoreCase) {
    this.pattern = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
    this.ignoreCase = ignoreCase;
  }

  /** Host names compare in any case (RFC 9110: the host is case-insensitive). */
  public static ValueGlob ignoringCase(String pattern) {
    return new ValueGlob(pattern, true);
  }

  static ValueGlob exact(String pattern) {
    return new ValueGlob(pattern, false);
  }

  public boolean matches(String value) {
    if (value == null) {
      return false;
    }
    return matchesText(ignoreCase ? value.toLowerCase(Locale.ROOT) : value);
  }

  /** Iterative wildcard matching with one backtrack point: linear in practice, never exponential. */
  private boolean matchesText(String text) {
    int p = 0;
    int t = 0;
    int star = -1;
    int resume = 0;
    while (t < text.length()) {
      if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        resume = t;
      } else if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))) {
        p++;
        t++;
      } else if (star >= 0) {
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  @Override
  public String toString() {
    return pattern;
  }
}
