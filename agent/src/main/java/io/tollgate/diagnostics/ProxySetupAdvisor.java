package io.tollgate.diagnostics;

import io.tollgate.keys.Cidr;
import io.tollgate.keys.IpAddress;
import io.tollgate.keys.TrustedProxies;
import io.tollgate.logging.AgentLog;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
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
 * <p>Cheap enough for every request: after two windows of {@value #SAMPLES} observations it looks at
 * one request in 64 only, chosen by the thread's own random numbers, so that the requests it does
 * not look at write nothing that other threads share; once both warnings are given, it looks at
 * none.
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

  /** The share of a window's samples from one private peer that makes it look like a proxy. */
  static final double SINGLE_PEER_SHARE = 0.95;

  /** Requests counted towards the first two windows, then no more. */
  private final AtomicLong observed = new AtomicLong();
  /**
   * Set once the first two windows are counted: from then on a request reads this object's own
   * fields and its thread's random numbers, not the counter's nor the warnings' objects (each a
   * cache line of its own, which the network work between two requests has evicted).
   */
  private volatile boolean sampling;
  /** Set once both warnings are given: a single read for every request after. */
  private volatile boolean done;
  /** Guarded by this: the current window of {@value #SAMPLES} sampled peers. */
  private int windowSamples;
  private String windowPeer;
  private int windowPeerSamples;
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
    if (done) {
      return false;
    }
    if (sampling) {
      // one request in 64; whether both warnings are given is looked at only for those
      return ThreadLocalRandom.current().nextInt(64) == 0 && !bothWarned();
    }
    if (bothWarned()) {
      return false;
    }
    // every request of the first two windows (one may start with a probe from elsewhere)
    if (observed.get() < 2 * SAMPLES && observed.incrementAndGet() <= 2 * SAMPLES) {
      return true;
    }
    sampling = true;
    return ThreadLocalRandom.current().nextInt(64) == 0;
  }

  /** Whether both warnings are given: then nothing is looked at again ({@link #done}). */
  private boolean bothWarned() {
    if (warnedForwardedHeader.get() && warnedSinglePeer.get()) {
      done = true;
      return true;
    }
    return false;
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
    String dominant = singlePeerOfWindow(peer);
    if (dominant != null && isPrivate(dominant) && warnedSinglePeer.compareAndSet(false, true)) {
      IpAddress ip = IpAddress.tryParse(dominant);
      AgentLog.warn("at least " + Math.round(SINGLE_PEER_SHARE * 100) + "% of " + SAMPLES
          + " sampled requests came from " + (ip == null ? dominant : ip.toString())
          + ", a private address, and client-ip.trusted-proxies is 0: if that is a load"
          + " balancer, every client shares one budget and all get 429 at once. Set"
          + " client-ip.trusted-proxies.");
    }
  }

  /**
   * Counts a sample in the current window (its first peer is the window's candidate); at the end
   * of a window, returns that peer if it sent nearly all of it, and starts the next. A health
   * check from elsewhere costs one window at most, never the whole watch.
   */
  private synchronized String singlePeerOfWindow(String peer) {
    if (windowSamples == 0) {
      windowPeer = peer;
      windowPeerSamples = 0;
    }
    windowSamples++;
    if (windowPeer.equals(peer)) {
      windowPeerSamples++;
    }
    if (windowSamples < SAMPLES) {
      return null;
    }
    boolean single = windowPeerSamples >= SINGLE_PEER_SHARE * SAMPLES;
    windowSamples = 0;
    return single ? windowPeer : null;
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
