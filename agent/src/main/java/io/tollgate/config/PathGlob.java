package io.tollgate.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A path glob such as {@code /api/**}, {@code /users/*} or {@code /v?/items}.
 *
 * <ul>
 *   <li>{@code *} matches any characters within one segment (never {@code /}), including none;
 *   <li>{@code **} as a whole segment matches any number of segments, including zero, so {@code
 *       /api/**} matches {@code /api}, {@code /api/} and {@code /api/x/y};
 *   <li>{@code ?} matches one character within a segment;
 *   <li>everything else is literal and case-sensitive.
 * </ul>
 *
 * <p>Matching walks the path in place: no regex, no allocation. Paths must start with {@code /};
 * anything else never matches.
 */
public final class PathGlob {
  private static final String[] NO_SEGMENTS = new String[0];

  private final String pattern;
  /** The pattern's segments (between slashes); null entries stand for {@code **}. */
  private final String[] segments;
  /** Per segment: true when it has no wildcard, so a plain region comparison suffices. */
  private final boolean[] literal;
  private final boolean exact;

  private PathGlob(String pattern, String[] segments, boolean[] literal, boolean exact) {
    this.pattern = pattern;
    this.segments = segments;
    this.literal = literal;
    this.exact = exact;
  }

  /**
   * Compiles a glob.
   *
   * @throws IllegalArgumentException when the glob is null, empty or does not start with {@code /}
   */
  public static PathGlob compile(String glob) {
    if (glob == null || glob.isEmpty()) {
      throw new IllegalArgumentException("a path glob must not be empty");
    }
    if (glob.charAt(0) != '/') {
      throw new IllegalArgumentException("a path glob must start with '/', got '" + glob + "'");
    }
    List<String> segs = new ArrayList<>();
    int start = 1;
    while (true) {
      int end = glob.indexOf('/', start);
      String seg = end < 0 ? glob.substring(start) : glob.substring(start, end);
      if (seg.equals("**")) {
        // "/**/**" is the same as "/**".
        if (segs.isEmpty() || segs.get(segs.size() - 1) != null) {
          segs.add(null);
        }
      } else {
        segs.add(seg);
      }
      if (end < 0) {
        break;
      }
      start = end + 1;
    }
    String[] segments = segs.toArray(NO_SEGMENTS);
    boolean[] literal = new boolean[segments.length];
    boolean exact = true;
    for (int i = 0; i < segments.length; i++) {
      String s = segments[i];
      literal[i] = s != null && s.indexOf('*') < 0 && s.indexOf('?') < 0;
      exact &= literal[i];
    }
    return new PathGlob(glob, segments, literal, exact);
  }

  /** The glob as written. */
  public String pattern() {
    return pattern;
  }

  /**
   * The glob's leading segments that have no wildcard, in order: {@code /tenants/t5/**} gives
   * {@code [tenants, t5]}, {@code /api/*}{@code /x} gives {@code [api]}, {@code /**} none. Every
   * path the glob matches starts with these segments (split between slashes, after the first).
   */
  public List<String> literalPrefix() {
    List<String> prefix = new ArrayList<>();
    for (int i = 0; i < segments.length && literal[i]; i++) {
      prefix.add(segments[i]);
    }
    return prefix;
  }

  /** True when the glob has no wildcards. */
  public boolean isExact() {
    return exact;
  }

  /** Whether the (normalized, query-free) path matches this glob. */
  public boolean matches(String path) {
    if (path == null || path.isEmpty() || path.charAt(0) != '/') {
      return false;
    }
    if (exact) {
      return pattern.equals(path);
    }
    return matchFrom(0, path, 1);
  }

  /**
   * Matches pattern segments from {@code p} against the path's segments starting at {@code pos} (the
   * index just after a '/'), or {@code pos == -1} when the path has no more segments.
   */
  private boolean matchFrom(int p, String path, int pos) {
    while (true) {
      if (p == segments.length) {
        return pos < 0;
      }
      String seg = segments[p];
      if (seg == null) {
        if (p == segments.length - 1) {
          return true;
        }
        // Let ** swallow zero, one, two ... segments.
        while (true) {
          if (matchFrom(p + 1, path, pos)) {
            return true;
          }
          if (pos < 0) {
            return false;
          }
          int slash = path.indexOf('/', pos);
          pos = slash < 0 ? -1 : slash + 1;
        }
      }
      if (pos < 0) {
        return false;
      }
      int slash = path.indexOf('/', pos);
      int end = slash < 0 ? path.length() : slash;
      boolean ok =
          literal[p]
              ? end - pos == seg.length() && path.regionMatches(pos, seg, 0, seg.length())
              : matchSegment(seg, path, pos, end);
      if (!ok) {
        return false;
      }
      p++;
      pos = slash < 0 ? -1 : slash + 1;
    }
  }

  /** Wildcard match of one segment ({@code *}, {@code ?}) against path[from, to), iteratively. */
  private static boolean matchSegment(String seg, String path, int from, int to) {
    int p = 0;
    int s = from;
    int starP = -1;
    int starS = -1;
    int n = seg.length();
    while (s < to) {
      if (p < n) {
        char c = seg.charAt(p);
        if (c == '*') {
          starP = p++;
          starS = s;
          continue;
        }
        if (c == '?' || c == path.charAt(s)) {
          p++;
          s++;
          continue;
        }
      }
      if (starP < 0) {
        return false;
      }
      p = starP + 1;
      s = ++starS;
    }
    while (p < n && seg.charAt(p) == '*') {
      p++;
    }
    return p == n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathGlob && ((PathGlob) o).pattern.equals(pattern);
  }

  @Override
  public int hashCode() {
    return pattern.hashCode();
  }

  @Override
  public String toString() {
    return pattern;
  }
}
