package io.tollgate.keys;

/**
 * An IPv4 or IPv6 network in CIDR notation: {@code 10.0.0.0/8}, {@code 2001:db8::/32}, or a single
 * address ({@code 192.0.2.1} is {@code 192.0.2.1/32}, {@code ::1} is {@code ::1/128}).
 *
 * <p>Rules:
 * <ul>
 *   <li>Host bits after the prefix are cleared ({@code 10.1.2.3/8} is {@code 10.0.0.0/8}), as Go's
 *       {@code net.ParseCIDR} and Express's {@code proxy-addr} do.</li>
 *   <li>A range written inside IPv4-mapped IPv6 space ({@code ::ffff:10.0.0.0/104}) becomes the
 *       IPv4 range ({@code 10.0.0.0/8}), because addresses are normalised the same way
 *       ({@link IpAddress}). Such a range with a prefix shorter than 96 is rejected as ambiguous.</li>
 *   <li>Families never mix: an IPv4 network contains only IPv4 addresses, an IPv6 network only
 *       IPv6 ones. To trust everything you must list both {@code 0.0.0.0/0} and {@code ::/0}.</li>
 * </ul>
 *
 * <p>Parsing never resolves names. Instances are immutable and thread-safe.
 */
public final class Cidr {

  private final IpAddress network;
  private final int prefixLength;

  private Cidr(IpAddress network, int prefixLength) {
    this.network = network;
    this.prefixLength = prefixLength;
  }

  /**
   * Parses {@code address[/prefix]} (surrounding spaces allowed).
   *
   * @throws IllegalArgumentException with a message saying what is wrong
   */
  public static Cidr parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("CIDR is null");
    }
    String t = text.trim();
    int slash = t.indexOf('/');
    String addrText = slash < 0 ? t : t.substring(0, slash);
    IpAddress addr = IpAddress.tryParse(addrText);
    if (addr == null || addrText.indexOf('%') >= 0) {
      throw new IllegalArgumentException("not an IP address or CIDR: " + IpAddress.abbreviate(text));
    }
    boolean writtenAsV6 = addrText.indexOf(':') >= 0;
    int max = writtenAsV6 ? 128 : 32;
    int prefix = max;
    if (slash >= 0) {
      String p = t.substring(slash + 1);
      if (p.isEmpty() || p.length() > 3) {
        throw new IllegalArgumentException("bad prefix length in CIDR: " + IpAddress.abbreviate(text));
      }
      prefix = 0;
      for (int i = 0; i < p.length(); i++) {
        char c = p.charAt(i);
        if (c < '0' || c > '9') {
          throw new IllegalArgumentException("bad prefix length in CIDR: " + IpAddress.abbreviate(text));
        }
        prefix = prefix * 10 + (c - '0');
      }
      if (prefix > max) {
        throw new IllegalArgumentException("prefix length " + prefix + " exceeds " + max + " in CIDR: "
            + IpAddress.abbreviate(text));
      }
    }
    if (writtenAsV6 && addr.isIpv4()) {
      // written as IPv4-mapped IPv6; IpAddress already turned it into IPv4
      if (prefix < 96) {
        throw new IllegalArgumentException("IPv4-mapped range with prefix below 96 is ambiguous: "
            + IpAddress.abbreviate(text) + "; write the IPv4 and IPv6 ranges separately");
      }
      prefix -= 96;
    }
    return new Cidr(addr.mask(prefix), prefix);
  }

  /** True when {@code address} is non-null, of this network's family, and inside it. */
  public boolean contains(IpAddress address) {
    if (address == null || address.isIpv4() != network.isIpv4()) {
      return false;
    }
    int full = prefixLength >>> 3;
    for (int i = 0; i < full; i++) {
      if (address.byteAt(i) != network.byteAt(i)) {
        return false;
      }
    }
    int rem = prefixLength & 7;
    if (rem == 0) {
      return true;
    }
    int m = (0xff << (8 - rem)) & 0xff;
    return (address.byteAt(full) & m) == (network.byteAt(full) & m);
  }

  /** Like {@link #contains(IpAddress)} for a literal; false for anything that is not one. Never throws. */
  public boolean contains(String addressLiteral) {
    return contains(IpAddress.tryParse(addressLiteral));
  }

  /** The network address (host bits cleared). */
  public IpAddress network() {
    return network;
  }

  public int prefixLength() {
    return prefixLength;
  }

  public boolean isIpv4() {
    return network.isIpv4();
  }

  /** Canonical {@code network/prefix}, e.g. {@code 10.0.0.0/8}, {@code 2001:db8::/32}. */
  @Override
  public String toString() {
    return network + "/" + prefixLength;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Cidr)) {
      return false;
    }
    Cidr c = (Cidr) o;
    return prefixLength == c.prefixLength && network.equals(c.network);
  }

  @Override
  public int hashCode() {
    return network.hashCode() * 31 + prefixLength;
  }
}
