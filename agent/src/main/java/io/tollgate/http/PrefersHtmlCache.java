package io.tollgate.http;

/**
 * The answer of {@link RefusalResponse#prefersHtml} for {@code Accept} values already seen: a
 * flood's clients send one or a few, and parsing each again (splits, lower-casing, a pattern for
 * {@code q}) costs more than the rest of the refusal once its body is cached.
 *
 * <p>Direct-mapped, {@value #SLOTS} slots, values up to {@value #MAX_LENGTH} characters (longer ones
 * are parsed every time, so a client cannot make the cache hold much). No lock: a slot holds an
 * immutable {@link Answer} (final fields); racing writers only replace each other's answer.
 */
final class PrefersHtmlCache {

  static final int SLOTS = 32;
  static final int MAX_LENGTH = 512;

  private static final Answer[] SLOTS_BY_HASH = new Answer[SLOTS];

  private PrefersHtmlCache() {}

  /** The answer kept for {@code accept}, or null when there is none. */
  static Boolean find(String accept) {
    Answer answer = SLOTS_BY_HASH[slot(accept)];
    return answer != null && answer.accept.equals(accept) ? answer.html : null;
  }

  /** Keeps {@code html} as the answer for {@code accept}, when it is short enough. */
  static boolean keep(String accept, boolean html) {
    if (accept.length() <= MAX_LENGTH) {
      SLOTS_BY_HASH[slot(accept)] = new Answer(accept, html);
    }
    return html;
  }

  private static int slot(String accept) {
    int h = accept.hashCode();
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }

  private static final class Answer {
    final String accept;
    final Boolean html;

    Answer(String accept, boolean html) {
      this.accept = accept;
      this.html = html;
    }
  }
}
