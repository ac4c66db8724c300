package io.tollgate.keys;

import java.util.List;

/**
 * Bounded right-to-left readers for {@code X-Forwarded-For} and RFC 7239 {@code Forwarded}.
 *
 * <p>Both read the concatenation of all header lines, in order, from the <b>right</b>: the end that
 * trusted proxies write. They collect the leading run of valid addresses (rightmost first) and stop
 * at the first entry that is not an address (garbage, empty, {@code unknown}, {@code _hidden}, a
 * {@code Forwarded} element without exactly one {@code for=}, malformed quoting), after
 * {@value ClientAddressResolver#MAX_ENTRIES} entries, or when {@value ClientAddressResolver#MAX_CHARS}
 * characters (each header line also costs one) have been examined; an entry cut by that budget
 * counts as not an address. Nothing to the left of the stopping point is ever looked at, so work is
 * bounded whatever the header size, and never throws.
 */
final class ForwardingHeaders {

  private ForwardingHeaders() {
  }

  /** The result of reading one header: valid addresses, rightmost first. */
  static final class Chain {
    final IpAddress[] hops;
    /** Number of leading valid addresses in {@link #hops}. */
    int valid;
    /** Whether the header had any entry at all (valid or not), or was too big to read fully. */
    boolean present;
    /** Whether reading stopped at an entry that is not an address (or was cut by the budget). */
    boolean stoppedAtInvalid;

    /**
     * For at most {@code capacity} addresses: reading stops once it holds them, as it does at
     * {@value ClientAddressResolver#MAX_ENTRIES}; behind N proxies counted by hops only the
     * rightmost N can be the answer.
     */
    Chain(int capacity) {
      hops = new IpAddress[Math.max(1, Math.min(capacity, ClientAddressResolver.MAX_ENTRIES))];
    }

    boolean add(IpAddress a) {
      hops[valid++] = a;
      return valid < hops.length;
    }

    void invalid() {
      present = true;
      stoppedAtInvalid = true;
    }
  }

  static Chain readXForwardedFor(List<String> lines) {
    return readXForwardedFor(lines, ClientAddressResolver.MAX_ENTRIES);
  }

  /** As {@link #readXForwardedFor(List)}, stopping after {@code capacity} valid addresses. */
  static Chain readXForwardedFor(List<String> lines, int capacity) {
    Chain chain = new Chain(capacity);
    if (lines == null || lines.isEmpty()) {
      return chain;
    }
    int budget = ClientAddressResolver.MAX_CHARS;
    for (int li = lines.size() - 1; li >= 0; li--) {
      if (--budget < 0) {
        chain.invalid();
        return chain;
      }
      String line = lines.get(li);
      if (line == null) {
        continue;
      }
      int pos = line.length();
      boolean first = true;
      while (true) {
        int k = pos - 1;
        while (k >= 0 && line.charAt(k) != ',') {
          if (--budget < 0) {
            chain.invalid();
            return chain;
          }
          k--;
        }
        if (first && k < 0 && isBlank(line, 0, pos)) {
          break; // a blank line has no entries
        }
        first = false;
        chain.present = true;
        IpAddress a = IpAddress.parseHostPort(line, k + 1, pos);
        if (a == null) {
          chain.invalid();
          return chain;
        }
        if (!chain.add(a)) {
          return chain;
        }
        if (k < 0) {
          break;
        }
        if (--budget < 0) { // the comma
          chain.invalid();
          return chain;
        }
        pos = k;
      }
    }
    return chain;
  }

  static Chain readForwarded(List<String> lines) {
    return readForwarded(lines, ClientAddressResolver.MAX_ENTRIES);
  }

  /** As {@link #readForwarded(List)}, stopping after {@code capacity} valid addresses. */
  static Chain readForwarded(List<String> lines, int capacity) {
    Chain chain = new Chain(capacity);
    if (lines == null || lines.isEmpty()) {
      return chain;
    }
    int budget = ClientAddressResolver.MAX_CHARS;
    for (int li = lines.size() - 1; li >= 0; li--) {
      if (--budget < 0) {
        chain.invalid();
        return chain;
      }
      String line = lines.get(li);
      if (line == null) {
        continue;
      }
      int pos = line.length();
      boolean first = true;
      while (true) {
        // scan left to the element boundary: a ',' outside a quoted-string
        int k = pos - 1;
        boolean malformed = false;
        while (k >= 0) {
          char c = line.charAt(k);
          if (--budget < 0) {
            chain.invalid();
            return chain;
          }
          if (c == ',') {
            break;
          }
          if (c == '"') {
            // k is a closing quote; the opening one is the first '"' to the left that
            // is preceded by an even number of backslashes
            int j = k - 1;
            boolean found = false;
            while (j >= 0) {
              if (--budget < 0) {
                chain.invalid();
                return chain;
              }
              if (line.charAt(j) == '"') {
                int b = 0;
                int m = j - 1;
                while (m >= 0 && line.charAt(m) == '\\') {
                  if (--budget < 0) {
                    chain.invalid();
                    return chain;
                  }
                  b++;
                  m--;
                }
                if ((b & 1) == 0) {
                  found = true;
                  break;
                }
              }
              j--;
            }
            if (!found) {
              malformed = true;
              break;
            }
            k = j - 1;
            continue;
          }
          k--;
        }
        if (malformed) {
          chain.invalid();
          return chain;
        }
        if (first && k < 0 && isBlank(line, 0, pos)) {
          break;
        }
        first = false;
        chain.present = true;
        IpAddress a = parseElement(line, k + 1, pos);
        if (a == null) {
          chain.invalid();
          return chain;
        }
        if (!chain.add(a)) {
          return chain;
        }
        if (k < 0) {
          break;
        }
        pos = k;
      }
    }
    return chain;
  }

  /**
   * Parses one {@code Forwarded} element ({@code pair *( ";" pair )}) and returns the address in its
   * single {@code for} parameter, or null when it has none, more than one, one that is not an
   * address ({@code unknown}, {@code _obfuscated}, garbage), or when the element is malformed.
   * Parameter names are case-insensitive; spaces around separators are tolerated; a trailing
   * {@code ;} is tolerated.
   */
  static IpAddress parseElement(String s, int from, int to) {
    int i = from;
    String node = null;
    boolean sawFor = false;
    while (true) {
      i = skipOws(s, i, to);
      int nameStart = i;
      while (i < to && isTchar(s.charAt(i))) {
        i++;
      }
      int nameEnd = i;
      if (nameEnd == nameStart) {
        return null;
      }
      i = skipOws(s, i, to);
      if (i >= to || s.charAt(i) != '=') {
        return null;
      }
      i = skipOws(s, i + 1, to);
      String value;
      if (i < to && s.charAt(i) == '"') {
        StringBuilder sb = new StringBuilder();
        i++;
        boolean closed = false;
        while (i < to) {
          char c = s.charAt(i);
          if (c == '\\') {
            if (i + 1 >= to) {
              return null;
            }
            sb.append(s.charAt(i + 1));
            i += 2;
            continue;
          }
          if (c == '"') {
            closed = true;
            i++;
            break;
          }
          sb.append(c);
          i++;
          if (sb.length() > IpAddress.MAX_LITERAL_LENGTH + 8) {
            return null;
          }
        }
        if (!closed) {
          return null;
        }
        value = sb.toString();
      } else {
        int vs = i;
        while (i < to && s.charAt(i) != ';' && !IpAddress.isOws(s.charAt(i))) {
          char c = s.charAt(i);
          if (c == '"' || c == '\\' || c == ',') {
            return null;
          }
          i++;
        }
        if (i == vs) {
          return null;
        }
        value = s.substring(vs, Math.min(i, vs + IpAddress.MAX_LITERAL_LENGTH + 9));
      }
      i = skipOws(s, i, to);
      if (nameEnd - nameStart == 3 && s.regionMatches(true, nameStart, "for", 0, 3)) {
        if (sawFor) {
          return null;
        }
        sawFor = true;
        node = value;
      }
      if (i >= to) {
        break;
      }
      if (s.charAt(i) != ';') {
        return null;
      }
      i = skipOws(s, i + 1, to);
      if (i >= to) {
        break;
      }
    }
    if (!sawFor || node.isEmpty() || node.charAt(0) == '_' || "unknown".equalsIgnoreCase(node)) {
      return null;
    }
    return IpAddress.parseHostPort(node);
  }

  private static int skipOws(String s, int i, int to) {
    while (i < to && IpAddress.isOws(s.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isBlank(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!IpAddress.isOws(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isTchar(char c) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      return true;
    }
    return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
