package io.tollgate.replay.log;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads NCSA access-log lines: {@code %h %l %u %t "%r" %>s %b}, then any trailing fields, which
 * covers Apache's and nginx's {@code common} and {@code combined}, Tomcat AccessLogValve's {@code
 * common}, {@code combined} and default pattern, and the many nginx formats that append fields to
 * {@code combined}.
 *
 * <p>Trailing fields: the first two quoted ones are the referer and the user agent (Apache and
 * nginx {@code combined}). A quoted field that looks like a list of addresses ({@code "203.0.113.9,
 * 10.0.0.2"}), in any position, is the {@code X-Forwarded-For} header, as nginx's very common
 * {@code ... "$http_user_agent" "$http_x_forwarded_for"} writes it. Anything else (unquoted
 * numbers such as {@code %D}, more quoted fields) is skipped. {@code -} is an absent value.
 *
 * <p>Hand-written, without regular expressions, on the line's bytes: only the fields kept become
 * Strings. Quoted fields may contain {@code \"} (Apache, Tomcat) and {@code \xHH} (nginx)
 * escapes. A log written by an old Apache that did not escape quotes in the request line is read
 * too, by looking for the closing quote that a status follows.
 */
final class NcsaLineParser implements LineParser {

  private final Timestamps timestamps = new Timestamps();
  private final RequestLine requestLine = new RequestLine();
  private String whyNot;

  // The end of the last quoted field read, and whether it held escapes.
  private int quoteEnd;
  private boolean escaped;

  // User agents and referers repeat from line to line: one String each (less memory in the
  // reorder buffer and the replay). Not clients: too many distinct ones, where a cache that
  // mostly misses costs a quarter of the throughput (measured).
  private final StringCache values = new StringCache(1024);

  @Override
  public String whyNot() {
    return whyNot;
  }

  private LoggedRequest fail(String reason) {
    whyNot = reason;
    return null;
  }

  @Override
  public LoggedRequest parse(byte[] b, int start, int end, String source, long lineNumber) {
    int p = skipSpaces(b, start, end);
    if (p < end && b[p] == '{') {
      return fail("a JSON line, not an NCSA one: read it with --format json");
    }
    // %h: the client address (IPv4, IPv6 without brackets, or a host name)
    int e = tokenEnd(b, p, end);
    if (e == p) {
      return fail("no client address");
    }
    String client = RequestLine.text(b, p, e);
    // %l: identd, always "-" in practice
    p = skipSpaces(b, e, end);
    e = tokenEnd(b, p, end);
    if (e == p) {
      return fail("no identity field after the client address");
    }
    int identStart = p;
    int identEnd = e;
    // %u: the user, "-" for none; quoted by some formats
    p = skipSpaces(b, e, end);
    String user;
    if (p < end && b[p] == '"') {
      if (!quoted(b, p, end)) {
        return fail("unterminated quoted user field");
      }
      user = valueOrNull(b, p + 1, quoteEnd);
      e = quoteEnd + 1;
    } else {
      e = tokenEnd(b, p, end);
      if (e == p) {
        return fail("no user field");
      }
      user = valueOrNull(b, p, e);
    }
    // %t: [10/Oct/2000:13:55:36 -0700]
    p = skipSpaces(b, e, end);
    String virtualHost = null;
    if (p < end && b[p] != '[' && b[p] != '"') {
      // Apache's vhost_combined: "%v:%p %h %l %u %t ...", one more word before the time
      int wordEnd = tokenEnd(b, p, end);
      int afterWord = skipSpaces(b, wordEnd, end);
      if (afterWord < end && b[afterWord] == '[') {
        virtualHost = client;
        client = RequestLine.text(b, identStart, identEnd);
        user = valueOrNull(b, p, wordEnd);
        p = afterWord;
      }
    }
    if (p >= end || b[p] != '[') {
      return fail("no [time] after the user field");
    }
    int close = indexOf(b, p + 1, end, (byte) ']');
    if (close < 0) {
      return fail("unterminated [time]");
    }
    long millis = timestamps.parseNcsa(b, p + 1, close);
    if (millis == Timestamps.INVALID) {
      return fail("time is not dd/MMM/yyyy:HH:mm:ss +zone");
    }
    // "%r": the request line
    p = skipSpaces(b, close + 1, end);
    if (p >= end || b[p] != '"') {
      return fail("no quoted request line after the time");
    }
    int requestStart = p + 1;
    if (!quoted(b, p, end)) {
      return fail("unterminated quoted request line");
    }
    int requestEnd = quoteEnd;
    boolean requestEscaped = escaped;
    // %s: the status, then %b. A status that is not a number may mean an unescaped quote inside
    // the request line (Apache before 2.0.46): try the next quote followed by a status.
    p = skipSpaces(b, requestEnd + 1, end);
    e = tokenEnd(b, p, end);
    int status = status(b, p, e);
    while (status == Integer.MIN_VALUE) {
      int next = indexOf(b, requestEnd + 1, end, (byte) '"');
      if (next < 0) {
        return fail("status is not a number");
      }
      requestEnd = next;
      p = skipSpaces(b, requestEnd + 1, end);
      e = tokenEnd(b, p, end);
      status = status(b, p, e);
    }
    String problem =
        requestEscaped || containsBackslash(b, requestStart, requestEnd)
            ? parseEscapedRequestLine(b, requestStart, requestEnd)
            : requestLine.parse(b, requestStart, requestEnd);
    if (problem != null) {
      return fail(problem);
    }
    // %b: bytes sent, a number or "-"; not kept. Absent in some formats.
    p = skipSpaces(b, e, end);
    if (p < end && b[p] != '"') {
      p = skipSpaces(b, tokenEnd(b, p, end), end);
    }
    Map<String, String> headers = trailingFields(b, p, end);
    if (requestLine.host != null) {
      headers = put(headers, "host", requestLine.host);
    } else if (virtualHost != null) {
      headers = put(headers, "host", withoutPort(virtualHost));
    }
    return new LoggedRequest(millis, client, requestLine.method, requestLine.path,
        requestLine.query, status, user, headers, source, lineNumber);
  }

  /** {@code www.example.com:443} without {@code :443}; a bracketed IPv6 literal keeps its colons. */
  private static String withoutPort(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon > 0 && hostAndPort.indexOf(']') < colon && hostAndPort.indexOf(':') == colon) {
      return hostAndPort.substring(0, colon);
    }
    return hostAndPort;
  }

  /** Referer, user agent and X-Forwarded-For from the fields after {@code %b}. */
  private Map<String, String> trailingFields(byte[] b, int p, int end) {
    Map<String, String> headers = null;
    int position = 0; // of quoted fields
    while (p < end) {
      if (b[p] == '"') {
        if (!quoted(b, p, end)) {
          break; // an unterminated trailing field: keep what was read
        }
        String value = valueOrNull(b, p + 1, quoteEnd);
        if (value != null) {
          if (looksLikeAddressList(value)) {
            if (headers == null || !headers.containsKey("x-forwarded-for")) {
              headers = put(headers, "x-forwarded-for", value);
            }
          } else if (position == 0) {
            headers = put(headers, "referer", value);
          } else if (position == 1) {
            headers = put(headers, "user-agent", value);
          }
        }
        position++;
        p = quoteEnd + 1;
      } else {
        p = tokenEnd(b, p, end);
      }
      p = skipSpaces(b, p, end);
    }
    return headers;
  }

  private static Map<String, String> put(Map<String, String> headers, String name, String value) {
    if (headers == null) {
      headers = new HashMap<>(8);
    }
    headers.put(name, value);
    return headers;
  }

  /**
   * Whether a value is a list of IP addresses (with ports, brackets, {@code unknown} entries):
   * what an X-Forwarded-For header holds and a referer or user agent never does.
   */
  static boolean looksLikeAddressList(String value) {
    int n = value.length();
    char first = n == 0 ? ' ' : value.charAt(0);
    if (!((first >= '0' && first <= '9') || (first >= 'a' && first <= 'f')
        || (first >= 'A' && first <= 'F') || first == '[' || first == ':' || first == 'u'
        || first == 'U')) {
      return false; // the common case, "Mozilla/5.0 ...", "https://...": said at once
    }
    boolean sawAddress = false;
    int i = 0;
    while (i < n) {
      while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == ',')) {
        i++;
      }
      int start = i;
      boolean digit = false;
      boolean separator = false;
      while (i < n && value.charAt(i) != ',' && value.charAt(i) != ' ') {
        char c = value.charAt(i);
        if (c >= '0' && c <= '9') {
          digit = true;
        } else if (c == '.' || c == ':') {
          separator = true;
        } else if (!((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '[' || c == ']'
            || c == '%')) {
          break;
        }
        i++;
      }
      if (i < n && value.charAt(i) != ',' && value.charAt(i) != ' ') {
        // a character no address has: only "unknown" is allowed as a word
        int wordEnd = i;
        while (wordEnd < n && value.charAt(wordEnd) != ',' && value.charAt(wordEnd) != ' ') {
          wordEnd++;
        }
        if (!value.regionMatches(true, start, "unknown", 0, 7) || wordEnd - start != 7) {
          return false;
        }
        i = wordEnd;
        continue;
      }
      if (i > start) {
        if (!(digit && separator)) {
          return false;
        }
        sawAddress = true;
      }
    }
    return sawAddress;
  }

  /** The request line with its escapes undone, then parsed. */
  private String parseEscapedRequestLine(byte[] b, int s, int e) {
    byte[] unescaped = unescape(b, s, e);
    return requestLine.parse(unescaped, 0, unescaped.length);
  }

  /**
   * Finds the closing quote of the field opening at {@code b[p] == '"'}: sets {@link #quoteEnd}
   * (its index) and {@link #escaped}; false when there is none.
   */
  private boolean quoted(byte[] b, int p, int end) {
    boolean sawEscape = false;
    for (int i = p + 1; i < end; i++) {
      byte c = b[i];
      if (c == '\\') {
        sawEscape = true;
        i++;
      } else if (c == '"') {
        quoteEnd = i;
        escaped = sawEscape;
        return true;
      }
    }
    return false;
  }

  /** The field's text with escapes undone, or null for {@code -} and empty. */
  private String valueOrNull(byte[] b, int s, int e) {
    if (e == s || (e - s == 1 && b[s] == '-')) {
      return null;
    }
    if (containsBackslash(b, s, e)) {
      return new String(unescape(b, s, e), StandardCharsets.UTF_8);
    }
    return values.get(b, s, e);
  }

  /** {@code \"}, {@code \\}, {@code \xHH} (nginx), {@code \n \r \t}; other backslashes stay. */
  static byte[] unescape(byte[] b, int s, int e) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(e - s);
    for (int i = s; i < e; i++) {
      byte c = b[i];
      if (c != '\\' || i + 1 >= e) {
        out.write(c);
        continue;
      }
      byte next = b[i + 1];
      int hex;
      if (next == '"' || next == '\\') {
        out.write(next);
        i++;
      } else if (next == 'n') {
        out.write('\n');
        i++;
      } else if (next == 't') {
        out.write('\t');
        i++;
      } else if (next == 'r') {
        out.write('\r');
        i++;
      } else if (next == 'x' && (hex = hex(b, i + 2, e)) >= 0) {
        out.write(hex);
        i += 3;
      } else {
        out.write(c);
      }
    }
    return out.toByteArray();
  }

  private static int hex(byte[] b, int p, int end) {
    if (p + 1 >= end) {
      return -1;
    }
    int high = Character.digit(b[p], 16);
    int low = Character.digit(b[p + 1], 16);
    return high < 0 || low < 0 ? -1 : high * 16 + low;
  }

  /** The status: 1 to 3 digits, or {@code -} for none (-1); MIN_VALUE when neither. */
  private static int status(byte[] b, int s, int e) {
    if (e - s == 1 && b[s] == '-') {
      return -1;
    }
    if (e == s || e - s > 3) {
      return Integer.MIN_VALUE;
    }
    int value = 0;
    for (int i = s; i < e; i++) {
      if (b[i] < '0' || b[i] > '9') {
        return Integer.MIN_VALUE;
      }
      value = value * 10 + (b[i] - '0');
    }
    return value;
  }

  private static boolean containsBackslash(byte[] b, int s, int e) {
    return indexOf(b, s, e, (byte) '\\') >= 0;
  }

  static int indexOf(byte[] b, int from, int end, byte c) {
    for (int i = from; i < end; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int skipSpaces(byte[] b, int p, int end) {
    while (p < end && (b[p] == ' ' || b[p] == '\t')) {
      p++;
    }
    return p;
  }

  private static int tokenEnd(byte[] b, int p, int end) {
    while (p < end && b[p] != ' ' && b[p] != '\t') {
      p++;
    }
    return p;
  }
}
