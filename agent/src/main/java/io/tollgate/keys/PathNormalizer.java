package io.tollgate.keys;

/**
 * Canonical form of a request path, for matching rules and building {@code route}-style keys, so that
 * {@code /login/}, {@code //login}, {@code /a/../login}, {@code /login;jsessionid=x} and
 * {@code /%6Cogin} cannot escape a limit on {@code /login} (CWE-647).
 *
 * <p>{@link #normalize(String)} applies, in order:
 * <ol>
 *   <li>Everything from the first {@code '?'} (query) or {@code '#'} (fragment) is dropped. An
 *       absolute-form target ({@code http://host:8080/x}) is reduced to its path.</li>
 *   <li>The path is split into segments at {@code '/'} <b>and</b> {@code '\'}: some containers treat a
 *       backslash as a separator, and treating it as one here can only make a limit apply more, never
 *       less.</li>
 *   <li>In each segment, path parameters are removed: everything from the first {@code ';'}
 *       ({@code /login;jsessionid=x} is {@code /login}, {@code /a;v=1/b} is {@code /a/b},
 *       {@code /..;/x} is {@code /x}, as Tomcat reads it).</li>
 *   <li>Percent-encoded <b>unreserved</b> characters (letters, digits, {@code - . _ ~}) are decoded,
 *       exactly once: {@code /%6Cogin} is {@code /login}, {@code %2e%2e} is {@code ..}. Every other
 *       escape stays encoded with its hex in upper case: {@code %2F} (an encoded {@code /}) stays
 *       {@code %2F} inside its segment and can never create a segment boundary, nor can {@code %5C}
 *       or {@code %3B}; {@code %252e} stays {@code %252e} (no double decoding). A {@code '%'} not
 *       followed by two hex digits is kept literally, and an escape of a hex digit right after such a
 *       literal {@code '%'} stays encoded, so that normalising twice gives the same result.</li>
 *   <li>Empty segments (doubled slashes) and {@code .} are dropped; {@code ..} removes the previous
 *       segment and never climbs above the root.</li>
 *   <li>The result is {@code "/"} followed by the segments joined with {@code '/'}: no trailing slash
 *       except for the root {@code "/"} itself.</li>
 * </ol>
 * Case is kept. Other characters (non-ASCII, control characters) are kept as they are. {@code null}
 * and the empty string give {@code "/"}.
 *
 * <p>Linear time and memory in the input length, no regular expressions, no exception on any input.
 * The input is not truncated: cutting a long path could drop a later {@code ..} and so change which
 * rule it matches; the container's own request-line limit bounds it.
 */
public final class PathNormalizer {

  private PathNormalizer() {
  }

  /** The canonical path of {@code requestUri}, as described in the class documentation. */
  public static String normalize(String requestUri) {
    if (requestUri != null && isNormal(requestUri)) {
      return requestUri; // the common case, on every request: nothing to copy
    }
    return normalizeCopy(requestUri);
  }

  /**
   * Whether {@link #normalize} would return {@code path} unchanged: it starts with {@code /}, and
   * has no empty, {@code .} or {@code ..} segment, no trailing {@code /} (unless it is {@code /}),
   * no query or fragment, no escape, no matrix parameter and no backslash.
   */
  static boolean isNormal(String path) {
    int n = path.length();
    if (n == 0 || path.charAt(0) != '/') {
      return false;
    }
    int segment = 1;
    for (int i = 1; i <= n && n > 1; i++) {
      char c = i < n ? path.charAt(i) : '/';
      if (c == '/') {
        int len = i - segment;
        if (len == 0
            || (path.charAt(segment) == '.'
                && (len == 1 || (len == 2 && path.charAt(segment + 1) == '.')))) {
          return false;
        }
        segment = i + 1;
      } else if (c == '\\' || c == ';' || c == '%' || c == '?' || c == '#') {
        return false;
      }
    }
    return true;
  }

  /** {@link #normalize} without the shortcut for paths that are normal already. */
  static String normalizeCopy(String requestUri) {
    if (requestUri == null) {
      return "/";
    }
    int end = requestUri.length();
    for (int i = 0; i < end; i++) {
      char c = requestUri.charAt(i);
      if (c == '?' || c == '#') {
        end = i;
        break;
      }
    }
    int start = skipSchemeAndAuthority(requestUri, end);
    StringBuilder out = new StringBuilder(Math.min(end - start + 1, 1 << 16));
    int[] stack = new int[16];
    int depth = 0;
    StringBuilder seg = new StringBuilder();
    int i = start;
    while (i <= end) {
      int a = i;
      while (i < end && !isSeparator(requestUri.charAt(i))) {
        i++;
      }
      int b = i; // segment is [a, b)
      i++;       // past the separator (or past end)
      int paramStart = a;
      while (paramStart < b && requestUri.charAt(paramStart) != ';') {
        paramStart++;
      }
      decodeUnreserved(requestUri, a, paramStart, seg);
      int len = seg.length();
      if (len == 0 || (len == 1 && seg.charAt(0) == '.')) {
        continue;
      }
      if (len == 2 && seg.charAt(0) == '.' && seg.charAt(1) == '.') {
        if (depth > 0) {
          out.setLength(stack[--depth]);
        }
        continue;
      }
      if (depth == stack.length) {
        int[] bigger = new int[stack.length * 2];
        System.arraycopy(stack, 0, bigger, 0, stack.length);
        stack = bigger;
      }
      stack[depth++] = out.length();
      out.append('/').append(seg);
    }
    return out.length() == 0 ? "/" : out.toString();
  }

  private static boolean isSeparator(char c) {
    return c == '/' || c == '\\';
  }

  /** Index where the path starts: after {@code scheme://authority} when present, else 0. */
  private static int skipSchemeAndAuthority(String s, int end) {
    if (end == 0 || !isAlpha(s.charAt(0))) {
      return 0;
    }
    int i = 1;
    while (i < end) {
      char c = s.charAt(i);
      if (isAlpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        i++;
      } else {
        break;
      }
    }
    if (i + 2 < end && s.charAt(i) == ':' && s.charAt(i + 1) == '/' && s.charAt(i + 2) == '/') {
      int j = i + 3;
      while (j < end && !isSeparator(s.charAt(j))) {
        j++;
      }
      return j;
    }
    return 0;
  }

  private static void decodeUnreserved(String s, int from, int to, StringBuilder seg) {
    seg.setLength(0);
    int literalPercent = -10; // index in seg of the last '%' kept literally
    int i = from;
    while (i < to) {
      char c = s.charAt(i);
      if (c == '%') {
        int h1 = i + 2 < to ? hex(s.charAt(i + 1)) : -1;
        int h2 = i + 2 < to ? hex(s.charAt(i + 2)) : -1;
        if (h1 >= 0 && h2 >= 0) {
          char d = (char) ((h1 << 4) | h2);
          int distance = seg.length() - literalPercent;
          // never let a decoded hex digit complete an escape after a literal '%'
          // ("%%3741" must not become "%741"): that keeps normalisation idempotent
          if (isUnreserved(d) && !(hex(d) >= 0 && (distance == 1 || distance == 2))) {
            seg.append(d);
          } else {
            seg.append('%').append(HEX[h1]).append(HEX[h2]);
          }
          i += 3;
          continue;
        }
        literalPercent = seg.length();
      }
      seg.append(c);
      i++;
    }
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static boolean isUnreserved(char c) {
    return isAlpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
  }

  private static boolean isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
