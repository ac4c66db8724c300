package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@code redis} section: either one {@code uri} or a {@code cluster} of seed URIs, the
 * per-decision timeout and the hard bound on waiting for a late reply, the TLS trust settings and whether refusals are cached locally.
 */
public final class RedisSettings {
  /** The default per-decision timeout: 50ms. */
  public static final long DEFAULT_TIMEOUT_NANOS = 50_000_000L;
  /** The default {@code max-wait}: 1 s, the store's own default. */
  public static final long DEFAULT_MAX_WAIT_NANOS = 1_000_000_000L;
  /**
   * The longest {@code max-wait}: 30 s, the most the agent holds any request in all (the engine's
   * {@code RequestHold}); a longer wait could never be used, only mislead.
   */
  public static final long MAX_MAX_WAIT_NANOS = 30_000_000_000L;

  /** How a {@code rediss://} server's certificate is checked ({@code tls.verify-peer}). */
  public enum VerifyPeer {
    /** The certificate chains to a trusted CA and names the host connected to (the default). */
    FULL,
    /** The certificate chains to a trusted CA; its host name is not checked. */
    CA,
    /** Nothing is checked: encryption without authentication of the server. */
    NONE
  }

  private final String uri;
  private final List<String> cluster;
  private final long timeoutNanos;
  private final long maxWaitNanos;
  private final boolean refusalCache;
  private final long leaseTokens;
  private final String tlsCaFile;
  private final VerifyPeer verifyPeer;
  /** 0: the default, twice the cores (at least 4), taken where the agent runs. */
  private final int maxWaitingThreads;

  public RedisSettings(String uri, List<String> cluster, long timeoutNanos) {
    this(uri, cluster, timeoutNanos, DEFAULT_MAX_WAIT_NANOS, false, 1, null, VerifyPeer.FULL, 0);
  }

  public RedisSettings(
      String uri,
      List<String> cluster,
      long timeoutNanos,
      long maxWaitNanos,
      boolean refusalCache,
      long leaseTokens,
      String tlsCaFile,
      VerifyPeer verifyPeer,
      int maxWaitingThreads) {
    this.maxWaitingThreads = maxWaitingThreads;
    this.uri = uri;
    this.cluster =
        cluster == null
            ? Collections.<String>emptyList()
            : Collections.unmodifiableList(new ArrayList<>(cluster));
    this.timeoutNanos = timeoutNanos;
    this.maxWaitNanos = maxWaitNanos;
    this.refusalCache = refusalCache;
    this.leaseTokens = leaseTokens;
    this.tlsCaFile = tlsCaFile;
    this.verifyPeer = verifyPeer == null ? VerifyPeer.FULL : verifyPeer;
  }

  /** The Redis URI with {@code ${ENV}} expanded, or null when a cluster is given instead. */
  public String uri() {
    return uri;
  }

  /** Seed node URIs for Redis Cluster with {@code ${ENV}} expanded; empty when {@code uri} is used. */
  public List<String> cluster() {
    return cluster;
  }

  /** How long one decision may wait for Redis; default 50ms. */
  public long timeoutNanos() {
    return timeoutNanos;
  }

  /**
   * {@code max-wait}: how long a decision waits for a reply later than the timeout while Redis
   * keeps answering other calls, before the rule's local share decides; default 1 s.
   */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  /**
   * {@code refusal-cache}: whether each instance remembers, per key, a refusal from Redis until its
   * Retry-After has passed and refuses that key's requests itself meanwhile. Default false.
   */
  public boolean refusalCache() {
    return refusalCache;
  }

  /**
   * {@code lease-tokens}: how many tokens one round trip takes for a key this instance sees at
   * least that often per second, the rest handed out locally; 1 (the default) is no leasing.
   */
  public long leaseTokens() {
    return leaseTokens;
  }

  /**
   * {@code tls.ca-file}: a PEM file of the CA certificate(s) to trust for {@code rediss://}, with
   * {@code ${ENV}} expanded; null to trust the JVM's default trust store.
   */
  public String tlsCaFile() {
    return tlsCaFile;
  }

  /**
   * {@code max-waiting-threads}: at most this many request threads wait for a reply later than the
   * timeout at once, past it decisions are made by their rule's local share at once; 0 for the
   * default (twice the cores,
   * at least 4).
   */
  public int maxWaitingThreads() {
    return maxWaitingThreads;
  }

  /**
   * What the connection is made with: the server(s) and TLS. Two settings with the same identity
   * differ at most in timings, which a reload applies to the connection in place, and in the
   * stores' options (refusal cache, leases), which do not touch the connection.
   */
  public boolean sameConnectionAs(RedisSettings other) {
    return other != null
        && String.valueOf(uri).equals(String.valueOf(other.uri))
        && cluster.equals(other.cluster)
        && String.valueOf(tlsCaFile).equals(String.valueOf(other.tlsCaFile))
        && verifyPeer == other.verifyPeer;
  }

  /**
   * What, of this section, decides where a rule's counts live and how its store is built: the
   * connection and the stores' options, not the timings (a change of {@code timeout}, {@code
   * max-wait} or {@code max-waiting-threads} keeps every count), as its rows in {@link
   * CountedState} say. Internal: never logged, and the URI's password appears only as a hash.
   */
  public String storeFingerprint() {
    return CountedState.ofRedis(this);
  }

  /** {@code tls.verify-peer}; {@link VerifyPeer#FULL} unless the file says otherwise. */
  public VerifyPeer verifyPeer() {
    return verifyPeer;
  }

  @Override
  public String toString() {
    return "RedisSettings{uri="
        + redact(uri)
        + ", cluster="
        + cluster.size()
        + " seed(s), timeout="
        + Durations.format(timeoutNanos)
        + (maxWaitNanos == DEFAULT_MAX_WAIT_NANOS ? "" : ", max-wait=" + Durations.format(maxWaitNanos))
        + (tlsCaFile == null ? "" : ", tls.ca-file=" + tlsCaFile)
        + (verifyPeer == VerifyPeer.FULL ? "" : ", tls.verify-peer=" + verifyPeer)
        + (refusalCache ? ", refusal-cache" : "")
        + (leaseTokens > 1 ? ", lease-tokens=" + leaseTokens : "")
        + (maxWaitingThreads > 0 ? ", max-waiting-threads=" + maxWaitingThreads : "")
        + "}";
  }

  /** Hides a password in {@code redis://user:password@host}. */
  static String redact(String uri) {
    if (uri == null) {
      return null;
    }
    int scheme = uri.indexOf("://");
    int at = uri.lastIndexOf('@');
    if (scheme < 0 || at < scheme) {
      return uri;
    }
    return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
  }
}
