package io.tollgate.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads parameters from a raw query string ({@code a=1&b=x%20y}) as servlet containers do by
 * default: {@code +} as a space, percent escapes as UTF-8 (Tomcat's, Jetty's and Undertow's
 * default URI encoding). Only the query string, never a body: a key read here costs nothing the
 * application would notice.
 */
public final class QueryStrings {

  private QueryStrings() {}

  /** The first value of {@code name} in {@code query} (without {@code ?}), or null. */
  public static String first(String query, String name) {
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
      if (nameEnd > start && decode(query, start, nameEnd).equals(name)) {
        return nameEnd == end ? "" : decode(query, nameEnd + 1, end);
      }
      start = end + 1;
    }
    return null;
  }

  /** How many values {@code name} has in {@code query}: where a body's own values start. */
  public static int count(String query, String name) {
    if (query == null || query.isEmpty()) {
      return 0;
    }
    int found = 0;
    int start = 0;
    int length = query.length();
    while (start <= length) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = length;
      }
      int equals = query.indexOf('=', start);
      int nameEnd = equals >= 0 && equals < end ? equals : end;
      if (nameEnd > start && decode(query, start, nameEnd).equals(name)) {
        found++;
      }
      start = end + 1;
    }
    return found;
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

  /**
   * Whether a request of this {@code Content-Type} carries fields in its body that the servlet
   * API's {@code getParameter} would parse: a URL-encoded form or a multipart one.
   */
  public static boolean isFormBody(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = contentType.trim().toLowerCase(java.util.Locale.ROOT);
    return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
  }
}
