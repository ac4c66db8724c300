package io.tollgate.replay;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads one parameter from a logged query string ({@code a=1&b=x%20y}) as a servlet container
 * would: the first value of that name, {@code +} as a space, percent escapes as UTF-8. Form
 * parameters sent in a body are not in an access log, so {@code param:} keys see the query only.
 */
final class QueryParameters {

  private QueryParameters() {}

  /** The first value of {@code name} in {@code query} (without {@code ?}), or null. */
  static String first(String query, String name) {
    if (query == null || query.isEmpty()) {
      return null;
    }
    int start = 0;
    int length = query.length();
    while (start <= length) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = length;
      }
      int equals = query.indexOf('=', start);
      int nameEnd = equals >= 0 && equals < end ? equals : end;
      if (decode(query, start, nameEnd).equals(name)) {
        return nameEnd == end ? "" : decode(query, nameEnd + 1, end);
      }
      start = end + 1;
    }
    return null;
  }

  /** {@code s[from, to)} with {@code +} and percent escapes decoded; a bad escape stays as it is. */
  static String decode(String s, int from, int to) {
    boolean plain = true;
    for (int i = from; i < to && plain; i++) {
      char c = s.charAt(i);
      plain = c != '%' && c != '+';
    }
    if (plain) {
      return s.substring(from, to);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c == '+') {
        bytes.write(' ');
      } else if (c == '%' && hex(s, i + 1, to) >= 0) {
        bytes.write(hex(s, i + 1, to));
        i += 2;
      } else if (c < 0x80) {
        bytes.write(c);
      } else {
        int codePoint = s.codePointAt(i);
        byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
        i += Character.charCount(codePoint) - 1;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  /** The byte written as two hex digits at {@code s[at]}, or -1 when there are not two before {@code to}. */
  private static int hex(String s, int at, int to) {
    if (at + 1 >= to) {
      return -1;
    }
    int high = Character.digit(s.charAt(at), 16);
    int low = Character.digit(s.charAt(at + 1), 16);
    return high < 0 || low < 0 ? -1 : high * 16 + low;
  }
}
