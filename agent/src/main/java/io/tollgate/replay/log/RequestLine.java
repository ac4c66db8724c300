package io.tollgate.replay.log;

import java.nio.charset.StandardCharsets;

/**
 * Splits a request line ({@code GET /path?query HTTP/1.1}) or a request target into method, path,
 * query and host, the way a server would have seen them: a target with a full URL ({@code GET
 * http://host/path HTTP/1.1}, as proxies receive) gives its host and its path, a line without a
 * protocol (HTTP/0.9 style, or a log format that leaves it out) is fine, and a path with a raw
 * space in it (nginx logs the line as received) keeps its space.
 *
 * <p>A mutable holder reused for every line of a file: the parsers copy its fields into the
 * {@link LoggedRequest}.
 */
final class RequestLine {

  private static final String[] COMMON_METHODS = {
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "TRACE", "PROPFIND"
  };

  String method;
  String path;
  String query;
  /** The host of a full-URL target, else null. */
  String host;

  /**
   * Reads {@code b[s, e)}; returns null when it is a request line, else why not (the fields are
   * then undefined).
   */
  String parse(byte[] b, int s, int e) {
    while (s < e && b[s] == ' ') {
      s++;
    }
    while (e > s && b[e - 1] == ' ') {
      e--;
    }
    if (s == e) {
      return "empty request line";
    }
    if (e - s == 1 && b[s] == '-') {
      return "no request line (\"-\"): the client sent no request";
    }
    int methodEnd = s;
    while (methodEnd < e && b[methodEnd] != ' ') {
      if (!isTokenChar(b[methodEnd])) {
        return "request line does not start with a method";
      }
      methodEnd++;
    }
    if (methodEnd - s > 32) {
      return "request line does not start with a method";
    }
    if (methodEnd == e) {
      return "request line has a method and no path";
    }
    method = method(b, s, methodEnd);
    int targetStart = methodEnd;
    while (b[targetStart] == ' ') {
      targetStart++;
    }
    int targetEnd = e;
    // The protocol is the last word when it starts with HTTP/: the target is everything between.
    int lastSpace = e - 1;
    while (lastSpace > targetStart && b[lastSpace] != ' ') {
      lastSpace--;
    }
    if (lastSpace > targetStart && startsWithHttp(b, lastSpace + 1, e)) {
      targetEnd = lastSpace;
      while (targetEnd > targetStart && b[targetEnd - 1] == ' ') {
        targetEnd--;
      }
    }
    target(b, targetStart, targetEnd);
    return null;
  }

  /** Reads a request target (a path with its query, or a full URL). */
  void target(byte[] b, int s, int e) {
    host = null;
    int pathStart = s;
    int scheme = schemeLength(b, s, e);
    if (scheme > 0) {
      int hostStart = s + scheme;
      int hostEnd = hostStart;
      while (hostEnd < e && b[hostEnd] != '/' && b[hostEnd] != '?') {
        hostEnd++;
      }
      int at = hostEnd - 1; // user:password@host
      while (at >= hostStart && b[at] != '@') {
        at--;
      }
      host = text(b, at >= hostStart ? at + 1 : hostStart, hostEnd);
      pathStart = hostEnd;
    }
    int question = pathStart;
    while (question < e && b[question] != '?') {
      question++;
    }
    if (scheme > 0 && (question == pathStart)) {
      path = "/";
    } else {
      path = text(b, pathStart, question);
    }
    query = question < e ? text(b, question + 1, e) : null;
  }

  /** A target given as a String (JSON logs). */
  void target(String t) {
    byte[] b = t.getBytes(StandardCharsets.UTF_8);
    target(b, 0, b.length);
  }

  /** Whether the target is a full URL: the length of {@code http://} or {@code https://}, or 0. */
  private static int schemeLength(byte[] b, int s, int e) {
    if (e - s < 8 || (b[s] | 0x20) != 'h' || (b[s + 1] | 0x20) != 't' || (b[s + 2] | 0x20) != 't'
        || (b[s + 3] | 0x20) != 'p') {
      return 0;
    }
    int p = s + 4;
    if ((b[p] | 0x20) == 's') {
      p++;
    }
    if (p + 3 <= e && b[p] == ':' && b[p + 1] == '/' && b[p + 2] == '/') {
      return p + 3 - s;
    }
    return 0;
  }

  private static boolean startsWithHttp(byte[] b, int s, int e) {
    return e - s >= 5 && b[s] == 'H' && b[s + 1] == 'T' && b[s + 2] == 'T' && b[s + 3] == 'P'
        && b[s + 4] == '/';
  }

  /** RFC 9110 token characters, which is what a method is made of. */
  private static boolean isTokenChar(byte c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
        || c == '-' || c == '_' || c == '.' || c == '!' || c == '#' || c == '$' || c == '%'
        || c == '&' || c == '\'' || c == '*' || c == '+' || c == '^' || c == '`' || c == '|'
        || c == '~';
  }

  /** The method, as one shared String for the usual ones (millions of lines say GET). */
  private static String method(byte[] b, int s, int e) {
    for (String known : COMMON_METHODS) {
      if (known.length() == e - s && matches(b, s, known)) {
        return known;
      }
    }
    return text(b, s, e);
  }

  private static boolean matches(byte[] b, int s, String ascii) {
    for (int i = 0; i < ascii.length(); i++) {
      if (b[s + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  static String text(byte[] b, int s, int e) {
    return new String(b, s, e - s, StandardCharsets.UTF_8);
  }
}
