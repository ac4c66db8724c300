package io.tollgate.keys;

import java.util.Arrays;

/**
 * An IPv4 or IPv6 address parsed from its textual literal, <b>without any name resolution</b>.
 *
 * <p>This class never calls {@code InetAddress.getByName} or anything else that could reach DNS: it is
 * a hand-written, bounded, character-level parser. Anything that is not an address literal (a host
 * name, {@code unknown}, an RFC 7239 obfuscated identifier such as {@code _hidden}, garbage) is simply
 * rejected.
 *
 * <p>Accepted literals:
 * <ul>
 *   <li>IPv4 dotted quad, exactly four decimal octets 0..255. Octets with leading zeros
 *       ({@code 010.1.1.1}) are rejected, because some parsers read them as octal; so are shorthand
 *       forms such as {@code 127.1} or hexadecimal ones.</li>
 *   <li>IPv6 in any RFC 4291 text form: full, {@code ::}-compressed, with an embedded dotted quad in
 *       the last 32 bits ({@code ::ffff:1.2.3.4}, {@code 64:ff9b::192.0.2.1}); hex in either case.</li>
 *   <li>An IPv6 zone id ({@code fe80::1%eth0}, {@code ::1%0}) is accepted and dropped: the zone is a
 *       property of the receiving host, not of the client.</li>
 * </ul>
 *
 * <p><b>IPv4-mapped IPv6</b> ({@code ::ffff:0:0/96}, detected by its bits, so {@code ::ffff:1.2.3.4}
 * and {@code ::ffff:102:304} alike) is normalised to the plain IPv4 address. An {@code IpAddress}
 * therefore never holds a mapped address, and a dual-stack socket cannot make every IPv4 client share
 * one IPv6 prefix bucket (the CVE-2026-30827 failure). Other IPv6 forms that carry an IPv4
 * address stay IPv6 here (so that CIDRs of them still match), and are keyed by that IPv4 address
 * ({@link #embeddedIpv4()}, {@link #toKey(int)}).
 *
 * <p>{@link #parseHostPort(String)} additionally understands the forms seen in forwarding headers and
 * socket peer strings: {@code [2001:db8::1]}, {@code [2001:db8::1]:443}, {@code 1.2.3.4:8080}, and an
 * RFC 7239 obfuscated port ({@code 1.2.3.4:_abc}). The port is always discarded: a port in a key
 * would let a client rotate its key per connection.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IpAddress {

  /** Literals longer than this are rejected before any parsing (the longest real one is ~45). */
  static final int MAX_LITERAL_LENGTH = 128;
  private static final int MAX_ZONE_LENGTH = 64;

  private final byte[] bytes; // 4 or 16, never IPv4-mapped IPv6

  private IpAddress(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Parses an address literal (no brackets, no port; a zone id is allowed and dropped).
   *
   * @throws IllegalArgumentException if {@code literal} is not an IPv4 or IPv6 literal
   */
  public static IpAddress parse(String literal) {
    IpAddress a = tryParse(literal);
    if (a == null) {
      throw new IllegalArgumentException("not an IP address literal: " + abbreviate(literal));
    }
    return a;
  }

  /**
   * Parses an address literal (no brackets, no port; a zone id is allowed and dropped), or returns
   * {@code null} when {@code literal} is null or not a literal. Never throws.
   */
  public static IpAddress tryParse(String literal) {
    if (literal == null) {
      return null;
    }
    return tryParse(literal, 0, literal.length());
  }

  /**
   * Whether {@code text} is an IPv4 address written exactly as {@link #toString()} writes it (four
   * decimal numbers 0..255 without leading zeros, three dots, nothing else): then it is its own
   * key, and a caller can use it without parsing it or making a new string.
   */
  public static boolean isCanonicalIpv4(String text) {
    return text != null && isCanonicalIpv4(text, 0, text.length());
  }

  /** As {@link #isCanonicalIpv4(String)}, for {@code text} from {@code from} to {@code to}. */
  static boolean isCanonicalIpv4(String text, int from, int to) {
    int n = to - from;
    if (n < 7 || n > 15) {
      return false;
    }
    // one pass: digits and dots only, four numbers of 1..3 digits, no leading zero, none > 255
    int dots = 0;
    int digits = 0;
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '.') {
        if (digits == 0 || ++dots > 3) {
          return false;
        }
        digits = 0;
        value = 0;
      } else if (c >= '0' && c <= '9') {
        if (digits == 1 && value == 0) {
          return false;
        }
        value = value * 10 + (c - '0');
        if (++digits > 3 || value > 255) {
          return false;
        }
      } else {
        return false;
      }
    }
    return dots == 3 && digits > 0;
  }

  /**
   * Parses an address as written in a forwarding header or a socket peer string: a plain literal,
   * a bracketed IPv6 literal, either followed by an optional {@code :port} (decimal 0..65535, or an
   * RFC 7239 obfuscated port {@code _xyz}) which is discarded. An unbracketed IPv6 literal is
   * accepted too, and then never has a port. Returns {@code null} for anything else. Never throws.
   * Leading and trailing spaces and tabs are ignored.
   */
  public static IpAddress parseHostPort(String text) {
    if (text == null) {
      return null;
    }
    return parseHostPort(text, 0, text.length());
  }

  static IpAddress parseHostPort(String s, int from, int to) {
    while (from < to && isOws(s.charAt(from))) {
      from++;
    }
    while (to > from && isOws(s.charAt(to - 1))) {
      to--;
    }
    if (to - from == 0 || to - from > MAX_LITERAL_LENGTH + 8) {
      return null;
    }
    if (s.charAt(from) == '[') {
      int close = indexOf(s, ']', from + 1, to);
      if (close < 0) {
        return null;
      }
      if (indexOf(s, ':', from + 1, close) < 0) {
        return null; // brackets are only for IPv6 text
      }
      if (close + 1 < to && !isPort(s, close + 1, to)) {
        return null;
      }
      return tryParse(s, from + 1, close);
    }
    int firstColon = indexOf(s, ':', from, to);
    if (firstColon < 0) {
      return tryParse(s, from, to);
    }
    if (indexOf(s, ':', firstColon + 1, to) < 0) {
      // exactly one colon: IPv4:port
      if (!isPort(s, firstColon, to)) {
        return null;
      }
      byte[] v4 = parseV4(s, from, firstColon);
      return v4 == null ? null : new IpAddress(v4);
    }
    return tryParse(s, from, to); // unbracketed IPv6, no port possible
  }

  /** {@code s[from]} is ':'; the rest must be a port: 1-5 digits <= 65535, or '_' + obfuscated chars. */
  private static boolean isPort(String s, int from, int to) {
    if (s.charAt(from) != ':' || to - from < 2) {
      return false;
    }
    int start = from + 1;
    if (s.charAt(start) == '_') {
      if (to - start > MAX_ZONE_LENGTH) {
        return false;
      }
      for (int i = start + 1; i < to; i++) {
        char c = s.charAt(i);
        if (!(isAlnum(c) || c == '.' || c == '_' || c == '-')) {
          return false;
        }
      }
      return to - start >= 2;
    }
    if (to - start > 5) {
      return false;
    }
    int v = 0;
    for (int i = start; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
      v = v * 10 + (c - '0');
    }
    return v <= 65535;
  }

  static IpAddress tryParse(String s, int from, int to) {
    if (to - from <= 0 || to - from > MAX_LITERAL_LENGTH) {
      return null;
    }
    int colon = indexOf(s, ':', from, to);
    if (colon < 0) {
      byte[] v4 = parseV4(s, from, to);
      return v4 == null ? null : new IpAddress(v4);
    }
    int pct = indexOf(s, '%', from, to);
    int end = to;
    if (pct >= 0) {
      if (!isZone(s, pct + 1, to)) {
        return null;
      }
      end = pct;
    }
    byte[] v6 = parseV6(s, from, end);
    if (v6 == null) {
      return null;
    }
    if (isMappedV4(v6)) {
      return new IpAddress(Arrays.copyOfRange(v6, 12, 16));
    }
    return new IpAddress(v6);
  }

  private static boolean isZone(String s, int from, int to) {
    int n = to - from;
    if (n < 1 || n > MAX_ZONE_LENGTH) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!(isAlnum(c) || c == '.' || c == '_' || c == '-' || c == '~')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isMappedV4(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }

  private static byte[] parseV4(String s, int from, int to) {
    byte[] out = new byte[4];
    return parseV4Into(s, from, to, out, 0) ? out : null;
  }

  private static boolean parseV4Into(String s, int from, int to, byte[] out, int off) {
    int part = 0;
    int i = from;
    while (true) {
      int start = i;
      int v = 0;
      while (i < to && i - start < 4) {
        char c = s.charAt(i);
        if (c < '0' || c > '9') {
          break;
        }
        v = v * 10 + (c - '0');
        i++;
      }
      int len = i - start;
      if (len == 0 || len > 3 || v > 255 || (len > 1 && s.charAt(start) == '0')) {
        return false;
      }
      out[off + part] = (byte) v;
      part++;
      if (part == 4) {
        return i == to;
      }
      if (i >= to || s.charAt(i) != '.') {
        return false;
      }
      i++;
    }
  }

  /** Parses IPv6 text without zone; returns 16 bytes or null. */
  private static byte[] parseV6(String s, int from, int to) {
    if (to - from < 2) {
      return null;
    }
    int dc = indexOf2(s, from, to);
    int[] groups = new int[8];
    byte[] out = new byte[16];
    if (dc < 0) {
      int n = parseGroups(s, from, to, groups, 0, 8, out, true);
      if (n != 8) {
        return null;
      }
    } else {
      if (indexOf2(s, dc + 1, to) >= 0) {
        return null; // a second "::", or ":::"
      }
      int left = parseGroups(s, from, dc, groups, 0, 7, out, false);
      if (left < 0) {
        return null;
      }
      int[] right = new int[8];
      int r = parseGroups(s, dc + 2, to, right, 0, 7 - left, out, true);
      if (r < 0 || left + r > 7) {
        return null;
      }
      // the embedded IPv4 (if any) was written into out[12..15] and counted as two groups
      for (int k = 0; k < r; k++) {
        groups[8 - r + k] = right[k];
      }
    }
    for (int g = 0; g < 8; g++) {
      if (groups[g] >= 0) {
        out[2 * g] = (byte) (groups[g] >>> 8);
        out[2 * g + 1] = (byte) groups[g];
      }
    }
    return out;
  }

  /** Index of "::" in s[from,to), or -1. */
  private static int indexOf2(String s, int from, int to) {
    for (int i = from; i + 1 < to; i++) {
      if (s.charAt(i) == ':' && s.charAt(i + 1) == ':') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Parses ':'-separated hex groups in s[from,to) into groups[off..]; an empty range is zero groups.
   * When allowV4Tail, the last token may be a dotted quad, which is written straight into
   * out[12..15] and recorded as two groups with value -1 (meaning "already written").
   * Returns the number of groups or -1.
   */
  private static int parseGroups(String s, int from, int to, int[] groups, int off, int max,
                   byte[] out, boolean allowV4Tail) {
    if (from == to) {
      return 0;
    }
    int n = 0;
    int i = from;
    while (true) {
      int start = i;
      int v = 0;
      boolean dot = false;
      while (i < to && s.charAt(i) != ':') {
        char c = s.charAt(i);
        int d = hex(c);
        if (c == '.') {
          dot = true;
        } else if (d < 0 && (c < '0' || c > '9')) {
          return -1;
        }
        if (!dot) {
          if (i - start >= 4) {
            return -1;
          }
          v = (v << 4) | d;
        }
        i++;
        if (i - start > 15) {
          return -1;
        }
      }
      if (i == start) {
        return -1; // empty group: leading/trailing single ':' or ':::'
      }
      if (dot) {
        if (!allowV4Tail || i != to || n + 2 > max) {
          return -1;
        }
        if (!parseV4Into(s, start, i, out, 12)) {
          return -1;
        }
        groups[off + n] = -1;
        groups[off + n + 1] = -1;
        return n + 2;
      }
      if (n + 1 > max) {
        return -1;
      }
      groups[off + n] = v;
      n++;
      if (i == to) {
        return n;
      }
      i++; // skip ':'
      if (i == to) {
        return -1; // trailing ':'
      }
    }
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

  private static boolean isAlnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isOws(char c) {
    return c == ' ' || c == '\t';
  }

  private static int indexOf(String s, char c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (s.charAt(i) == c) {
        return i;
      }
    }
    return -1;
  }

  static String abbreviate(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() <= 64 ? s : s.substring(0, 64) + "...";
  }

  /** True for an IPv4 address (including one given as IPv4-mapped IPv6). */
  public boolean isIpv4() {
    return bytes.length == 4;
  }

  /** 32 for IPv4, 128 for IPv6. */
  public int bitLength() {
    return bytes.length * 8;
  }

  /** A copy of the address bytes: 4 for IPv4, 16 for IPv6 (network order). */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /** Bit {@code i} (0 = most significant) of the address. */
  boolean bit(int i) {
    return ((bytes[i >>> 3] >>> (7 - (i & 7))) & 1) != 0;
  }

  byte byteAt(int i) {
    return bytes[i];
  }

  /**
   * This address with every bit after the first {@code prefixLength} cleared.
   *
   * @throws IllegalArgumentException unless {@code 0 <= prefixLength <= bitLength()}
   */
  public IpAddress mask(int prefixLength) {
    if (prefixLength < 0 || prefixLength > bitLength()) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " out of range 0.."
          + bitLength());
    }
    if (prefixLength == bitLength()) {
      return this;
    }
    byte[] b = bytes.clone();
    for (int i = 0; i < b.length; i++) {
      int bitsHere = prefixLength - i * 8;
      if (bitsHere >= 8) {
        continue;
      }
      if (bitsHere <= 0) {
        b[i] = 0;
      } else {
        b[i] = (byte) (b[i] & (0xff << (8 - bitsHere)));
      }
    }
    return new IpAddress(b);
  }

  /**
   * The rate-limit key for this address: an IPv4 address as its dotted quad ({@code 192.0.2.7});
   * an IPv6 address that carries an IPv4 client ({@link #embeddedIpv4()}) as that client's dotted
   * quad; any other IPv6 address as its network of the given prefix length, canonical text plus
   * the length ({@code 2001:db8:1:2::/64}; with 128, {@code 2001:db8::1/128}). IPv4 keys never
   * contain {@code '/'} and IPv6 keys always do.
   *
   * @param ipv6PrefixLength 1..128
   * @throws IllegalArgumentException if the prefix length is out of range
   */
  public String toKey(int ipv6PrefixLength) {
    if (ipv6PrefixLength < 1 || ipv6PrefixLength > 128) {
      throw new IllegalArgumentException("ipv6 prefix must be 1..128, was " + ipv6PrefixLength);
    }
    if (isIpv4()) {
      return toString();
    }
    IpAddress v4 = embeddedIpv4();
    if (v4 != null) {
      return v4.toString();
    }
    return mask(ipv6PrefixLength).toString() + "/" + ipv6PrefixLength;
  }

  /**
   * The IPv4 client an IPv6 address stands for, or null. A translator or tunnel puts the client's
   * IPv4 address into these, so that every client behind it would share one IPv6 prefix (a NAT64
   * gateway's whole user base in one /64) unless keyed by it:
   *
   * <ul>
   *   <li>NAT64, the well-known prefix {@code 64:ff9b::/96} (RFC 6052): the last 32 bits;
   *   <li>IPv4-translated {@code ::ffff:0:a.b.c.d} (RFC 2765): the last 32 bits;
   *   <li>IPv4-compatible {@code ::a.b.c.d} (deprecated by RFC 4291): the last 32 bits, unless they
   *       are in {@code 0.0.0.0/8}, which no client has (so {@code ::} and {@code ::1} are not);
   *   <li>6to4, {@code 2002::/16} (RFC 3056): bits 16 to 47, the site's IPv4 address;
   *   <li>Teredo, {@code 2001:0::/32} (RFC 4380): the client's public IPv4 address, the last 32
   *       bits inverted.
   * </ul>
   *
   * IPv4-mapped addresses ({@code ::ffff:a.b.c.d}) are IPv4 already ({@link #parse}). An IPv4
   * address has none.
   */
  public IpAddress embeddedIpv4() {
    if (isIpv4()) {
      return null;
    }
    if (group(0) == 0x0064 && group(1) == 0xff9b && zeroBytes(4, 12)) {
      return ipv4At(12, 0);
    }
    if (zeroBytes(0, 8) && group(4) == 0xffff && group(5) == 0) {
      return ipv4At(12, 0);
    }
    if (zeroBytes(0, 12) && bytes[12] != 0) {
      return ipv4At(12, 0);
    }
    if (group(0) == 0x2002) {
      return ipv4At(2, 0);
    }
    if (group(0) == 0x2001 && group(1) == 0) {
      return ipv4At(12, 0xff);
    }
    return null;
  }

  private int group(int index) {
    return ((bytes[2 * index] & 0xff) << 8) | (bytes[2 * index + 1] & 0xff);
  }

  private boolean zeroBytes(int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** The four bytes from {@code offset}, each XORed with {@code xor}, as an IPv4 address. */
  private IpAddress ipv4At(int offset, int xor) {
    byte[] v4 = new byte[4];
    for (int i = 0; i < 4; i++) {
      v4[i] = (byte) (bytes[offset + i] ^ xor);
    }
    return new IpAddress(v4);
  }

  /**
   * Canonical text: dotted quad for IPv4; RFC 5952 for IPv6 (lower case, no leading zeros, the
   * longest run of two or more zero groups, leftmost on a tie, written as {@code ::}).
   */
  @Override
  public String toString() {
    if (isIpv4()) {
      return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "."
          + (bytes[3] & 0xff);
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    if (bestLen < 2) {
      bestStart = -1;
    }
    StringBuilder sb = new StringBuilder(39);
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IpAddress && Arrays.equals(bytes, ((IpAddress) o).bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }
}
