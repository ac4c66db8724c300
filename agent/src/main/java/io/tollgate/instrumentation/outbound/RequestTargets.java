package io.tollgate.instrumentation.outbound;

/**
 * Reads an HTTP request target as clients keep it: absolute ({@code
 * http://host:8080/path?q}) or only a path ({@code /path?q}). By hand, not with {@code
 * java.net.URI}, which refuses what clients send as it is (a space, a {@code |}).
 */
public final class RequestTargets {

  private RequestTargets() {}

  /** Whether {@code target} starts with a scheme and {@code //}. */
  public static boolean isAbsolute(String target) {
    return target != null && schemeEnd(target) > 0;
  }

  /** The scheme of an absolute target ({@code http}), or null. */
  public static String scheme(String target) {
    int end = schemeEnd(target);
    return end > 0 ? target.substring(0, end) : null;
  }

  /** The host of an absolute target, as written (an IPv6 address keeps its brackets), or null. */
  public static String host(String target) {
    String authority = authority(target);
    if (authority == null) {
      return null;
    }
    if (authority.startsWith("[")) {
      int close = authority.indexOf(']');
      return close > 0 ? authority.substring(0, close + 1) : authority;
    }
    int colon = authority.lastIndexOf(':');
    return colon >= 0 ? authority.substring(0, colon) : authority;
  }

  /** The port an absolute target gives, or -1. */
  public static int port(String target) {
    String authority = authority(target);
    if (authority == null) {
      return -1;
    }
    int colon = authority.lastIndexOf(':');
    if (colon < 0 || authority.indexOf(']', colon) >= 0) {
      return -1;
    }
    try {
      return Integer.parseInt(authority.substring(colon + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The path of the target with its query: what follows the authority of an absolute one. */
  public static String pathAndQuery(String target) {
    if (target == null) {
      return null;
    }
    int end = schemeEnd(target);
    if (end <= 0) {
      return target;
    }
    int start = end + 3;
    int pathStart = authorityEnd(target, start);
    return target.substring(pathStart);
  }

  private static String authority(String target) {
    int end = schemeEnd(target);
    if (end <= 0) {
      return null;
    }
    int start = end + 3;
    String authority = target.substring(start, authorityEnd(target, start));
    int at = authority.lastIndexOf('@');
    return at >= 0 ? authority.substring(at + 1) : authority;
  }

  private static int authorityEnd(String target, int start) {
    for (int i = start; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c == '/' || c == '?' || c == '#') {
        return i;
      }
    }
    return target.length();
  }

  /** Where the scheme of {@code target} ends, before {@code ://}; -1 when it has none. */
  private static int schemeEnd(String target) {
    if (target == null) {
      return -1;
    }
    int colon = target.indexOf("://");
    if (colon <= 0) {
      return -1;
    }
    for (int i = 0; i < colon; i++) {
      char c = target.charAt(i);
      boolean schemeChar = Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.';
      if (!schemeChar || c > 127) {
        return -1;
      }
    }
    return colon;
  }
}
