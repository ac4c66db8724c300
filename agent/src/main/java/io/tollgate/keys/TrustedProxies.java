package io.tollgate.keys;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Which forwarding proxies in front of the application are trusted, for
 * {@link ClientAddressResolver}: the YAML {@code client-ip.trusted-proxies} setting.
 *
 * <p>Either a <b>hop count</b> {@code N} (0..{@value #MAX_HOPS}): exactly {@code N} reverse proxies
 * stand in front of the application, the socket peer being the last of them; or a <b>list of
 * CIDRs</b>: every proxy whose address is inside one of them is trusted, whatever the path. The
 * default, {@link #none()}, is hop count 0: forwarding headers are ignored and the client is the
 * socket peer. An empty CIDR list means the same.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class TrustedProxies {

  /** The largest hop count accepted; equal to the number of header entries ever examined. */
  public static final int MAX_HOPS = ClientAddressResolver.MAX_ENTRIES;

  private static final TrustedProxies NONE = new TrustedProxies(0, null);

  private final int hops;              // when cidrs == null
  private final List<Cidr> cidrs;      // null in hop-count mode

  private TrustedProxies(int hops, List<Cidr> cidrs) {
    this.hops = hops;
    this.cidrs = cidrs;
  }

  /** No proxy: the client is the socket peer and forwarding headers are ignored. */
  public static TrustedProxies none() {
    return NONE;
  }

  /**
   * Exactly {@code n} trusted reverse proxies in front of the application.
   *
   * @throws IllegalArgumentException unless {@code 0 <= n <= MAX_HOPS}
   */
  public static TrustedProxies hops(int n) {
    if (n < 0 || n > MAX_HOPS) {
      throw new IllegalArgumentException("trusted-proxies hop count must be 0.." + MAX_HOPS + ", was " + n);
    }
    return n == 0 ? NONE : new TrustedProxies(n, null);
  }

  /**
   * Trust proxies whose address lies in one of these CIDRs ({@link Cidr#parse} syntax).
   *
   * @throws IllegalArgumentException naming the first entry that is not a CIDR
   */
  public static TrustedProxies cidrs(List<String> cidrs) {
    List<Cidr> parsed = new ArrayList<>(cidrs.size());
    for (String c : cidrs) {
      parsed.add(Cidr.parse(c));
    }
    return new TrustedProxies(0, Collections.unmodifiableList(parsed));
  }

  /** Trust proxies whose address lies in one of these networks. */
  public static TrustedProxies of(Cidr... cidrs) {
    List<Cidr> list = new ArrayList<>(cidrs.length);
    for (Cidr c : cidrs) {
      if (c == null) {
        throw new IllegalArgumentException("null CIDR");
      }
      list.add(c);
    }
    return new TrustedProxies(0, Collections.unmodifiableList(list));
  }

  /** True in hop-count mode (including {@link #none()}). */
  public boolean isHopCount() {
    return cidrs == null;
  }

  /** The hop count; 0 in CIDR mode. */
  public int hopCount() {
    return hops;
  }

  /** The trusted networks; empty in hop-count mode. */
  public List<Cidr> cidrList() {
    return cidrs == null ? Collections.<Cidr>emptyList() : cidrs;
  }

  /** True when forwarding headers are never read (hop count 0, or an empty CIDR list). */
  public boolean ignoresHeaders() {
    return cidrs == null ? hops == 0 : cidrs.isEmpty();
  }

  /**
   * True when {@code address} is inside a trusted CIDR. Always false in hop-count mode (trust
   * there is positional, not by address) and for {@code null}.
   */
  public boolean trusts(IpAddress address) {
    if (cidrs == null || address == null) {
      return false;
    }
    for (int i = 0; i < cidrs.size(); i++) {
      if (cidrs.get(i).contains(address)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return cidrs == null ? "hops=" + hops : "cidrs=" + cidrs;
  }
}
