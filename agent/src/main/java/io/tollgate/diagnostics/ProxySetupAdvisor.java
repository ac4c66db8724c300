package io.tollgate.diagnostics;

import io.tollgate.keys.Cidr;
import io.tollgate.keys.IpAddress;
import io.tollgate.keys.TrustedProxies;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches traffic for the two classic mistakes with client addresses behind a load balancer, and
 * says so in the log, once each. It never changes a decision.
 *
 * <ul>
 *   <li>Requests carry {@code X-Forwarded-For} or {@code Forwarded} while no proxy is trusted: the
 *       key is the proxy's address, so every client behind it shares one budget.
 *   <li>Every request comes from one private address while no proxy is trusted: the same mistake
 *       with a proxy that adds no header; everyone gets 429 at once.
 * </ul>
 *
 * <p>Cheap enough for every request: after {@value #SAMPLES} observations it looks at one request
 * in 64 only.
 */
public final class ProxySetupAdvisor {

  static final int SAMPLES = 200;

  private static final List<Cidr> PRIVATE_NETWORKS =
      Arrays.asList(
          Cidr.parse("10.0.0.0/8"),
          Cidr.parse("172.16.0.0/12"),
          Cidr.parse("192.168.0.0/16"),
          Cidr.parse("100.64.0.0/10"),
          Cidr.parse("fc00::/7"));

  private final AtomicLong observed = new AtomicLong();
  private final AtomicLong fromSamePrivatePeer = new AtomicLong();
  private volatile String firstPeer;
  private final AtomicBoolean warnedForwardedHeader = new AtomicBoolean();
  private final AtomicBoolean warnedSinglePeer = new AtomicBoolean();

  /** Logs a warning at load time when the trusted-proxy setting trusts every address. */
  public static void checkSettings(TrustedProxies proxies, String source) {
    if (proxies.isHopCount()) {
      return;
    }
    for (Cidr cidr : proxies.cidrList()) {
      if (cidr.prefixLength() == 0) {
        AgentLog.warn(source + ": client-ip.trusted-proxies trusts every address (" + cidr
            + "): any client can choose its own key by writing X-Forwarded-For. List only your"
            + " proxies' networks.");
      }
    }
  }

  /** Whether this request should be looked at; call {@link #observe} only then. */
  public boolean wantsSample() {
    long n = observed.incrementAndGet();
    return (n <= SAMPLES || (n & 63) == 0) && !(warnedForwardedHeader.get() && warnedSinglePeer.get());
  }

  /**
   * One request, when no proxy is trusted: its socket peer and whether it carried a forwarding
   * header.
   */
  public void observe(String peer, boolean hasForwardingHeader) {
    if (hasForwardingHeader && warnedForwardedHeader.compareAndSet(false, true)) {
      AgentLog.warn("requests carry X-Forwarded-For (or Forwarded) from " + peer + " but"
          + " client-ip.trusted-proxies is 0, so rules keyed by ip count every client behind that"
          + " proxy as one. If a load balancer or reverse proxy stands in front of this app, set"
          + " client-ip.trusted-proxies to the number of proxies, or to their CIDRs.");
    }
    if (warnedSinglePeer.get() || peer == null) {
      return;
    }
    String first = firstPeer;
    if (first == null) {
      firstPeer = peer;
      first = peer;
    }
    if (!first.equals(peer)) {
      fromSamePrivatePeer.set(Long.MIN_VALUE / 2);
      return;
    }
    if (fromSamePrivatePeer.incrementAndGet() == SAMPLES && isPrivate(peer)
        && warnedSinglePeer.compareAndSet(false, true)) {
      AgentLog.warn("the last " + SAMPLES + " requests all came from " + peer + ", a private"
          + " address, and client-ip.trusted-proxies is 0: if that is a load balancer, every"
          + " client shares one budget and all get 429 at once. Set client-ip.trusted-proxies.");
    }
  }

  static boolean isPrivate(String address) {
    IpAddress ip = IpAddress.tryParse(address);
    if (ip == null) {
      return false;
    }
    for (Cidr network : PRIVATE_NETWORKS) {
      if (network.contains(ip)) {
        return true;
      }
    }
    return false;
  }
}
