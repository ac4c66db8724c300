package io.tollgate.keys;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The form of a client-written key value (a user name, an e-mail address) that an application
 * folding case or trimming would treat as the same account: {@code Admin}, {@code ADMIN},
 * {@code " admin"}, {@code "admin\t"}, {@code "admin\0"}, full-width {@code ａｄｍｉｎ} and
 * {@code admin} with a zero-width space all become {@code admin}, so that they share one budget.
 *
 * <p>In order: control characters (Unicode Cc) and format characters (Cf: zero-width spaces and
 * joiners, the byte order mark, soft hyphens, bidirectional marks) are removed, anywhere in the
 * value, since they are invisible and an attacker adds them for free; Unicode NFKC maps
 * compatibility forms (full-width letters, ligatures, no-break and ideographic spaces) to their plain
 * form; {@link Locale#ROOT} lower case folds case (never the platform locale: Turkish 'I' would fold
 * differently on different hosts); NFKC again, as lower-casing can undo it; white space is trimmed
 * at both ends, before NFKC and after it.
 *
 * <p>A value still longer than {@link #MAX_NFKC_CHARS} characters once its invisibles are removed
 * and it is trimmed is only folded to lower case: NFKC can expand one character eighteen-fold
 * ({@code U+FDFA}), so a 2 MB form field would cost tens of megabytes on each request, and no
 * application takes such a value for an account name (it is stored as a hash anyway, see
 * {@link KeyPartBound}).
 *
 * <p>Only ever merges keys, never splits them: a normalised key is at least as strict as the raw
 * one. Linear in the length of the value, and never more than twice its size; plain lower-case
 * ASCII (the common case) is returned as it is without allocating.
 */
public final class KeyNormalizer {

  /** The longest value (after removing invisibles and trimming) that NFKC is applied to. */
  static final int MAX_NFKC_CHARS = 4096;

  private KeyNormalizer() {
  }

  /** The normalised form of {@code value} (possibly empty); null for null. */
  public static String normalize(String value) {
    if (value == null || isAlreadyNormal(value)) {
      return value;
    }
    String visible = trim(withoutInvisibles(value));
    if (visible.length() > MAX_NFKC_CHARS) {
      return visible.toLowerCase(Locale.ROOT);
    }
    String folded =
        Normalizer.normalize(
            Normalizer.normalize(visible, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT),
            Normalizer.Form.NFKC);
    return trim(folded); // NFKC may have made spaces of no-break and ideographic ones
  }

  /** Printable ASCII without upper case, with no space at either end: nothing would change. */
  private static boolean isAlreadyNormal(String value) {
    int n = value.length();
    if (n > 0 && (value.charAt(0) == ' ' || value.charAt(n - 1) == ' ')) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c >= 0x7f || (c >= 'A' && c <= 'Z')) {
        return false;
      }
    }
    return true;
  }

  private static String withoutInvisibles(String value) {
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      int type = Character.getType(cp);
      if (type != Character.CONTROL && type != Character.FORMAT) {
        sb.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return sb.toString();
  }

  /** Trims every Unicode white space (not only ASCII's, as {@link String#trim()} does). */
  private static String trim(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && isSpace(value.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(start, end);
  }

  private static boolean isSpace(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }
}
