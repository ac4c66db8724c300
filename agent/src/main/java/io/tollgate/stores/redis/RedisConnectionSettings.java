package io.tollgate.stores.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * How to reach Redis, from the rules file's {@code redis:} section: one URI ({@code redis://},
 * {@code rediss://} with TLS, {@code user:password@}, or {@code redis-sentinel://}) or a list of
 * Redis Cluster seed URIs; and how long a decision may take.
 *
 * <p>Immutable; the {@code with...} methods return copies. {@link #toString()} never shows a
 * password.
 */
public final class RedisConnectionSettings {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
  /**
   * Bounds making a connection and its handshake. Generous: on a host busy starting JVMs a
   * handshake can take over a second, and one cut short only starts again from nothing. (While a
   * connection is being made, decisions do not wait for it beyond their own timeout.)
   */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final int DEFAULT_FAILURE_THRESHOLD = 3;
  public static final Duration DEFAULT_OPEN_DURATION = Duration.ofSeconds(1);
  public static final int DEFAULT_REQUEST_QUEUE_SIZE = 1024;
  public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(5);
  /**
   * How long a decision waits for a reply that is late while Redis is answering other calls (a
   * saturated host, a busy server): long past any scheduling or GC hiccup, short enough that a
   * server that truly stopped answering is noticed, and the breaker opened, within it.
   */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(1);
  /** How long the agent's start waits for the first connection before it says {@code ready}. */
  public static final Duration DEFAULT_STARTUP_WAIT = Duration.ofSeconds(10);

  private final String uri;
  private final List<String> clusterSeeds;
  private final Duration timeout;
  private final Duration connectTimeout;
  private final int failureThreshold;
  private final Duration openDuration;
  private final int requestQueueSize;
  private final String instanceGroup;
  private final Duration heartbeat;
  private final int fallbackInstances;
  private final String tlsCaFile;
  private final VerifyPeer verifyPeer;
  private final Duration maxWait;
  private final Duration startupWait;
  private final int maxWaitingThreads;

  /** How a {@code rediss://} server's certificate is checked. */
  public enum VerifyPeer {
    /** Chains to a trusted CA and names the host connected to. */
    FULL,
    /** Chains to a trusted CA; the host name is not checked. */
    CA,
    /** Not checked at all. */
    NONE
  }

  private RedisConnectionSettings(
      String uri,
      List<String> clusterSeeds,
      Duration timeout,
      Duration connectTimeout,
      int failureThreshold,
      Duration openDuration,
      int requestQueueSize,
      String instanceGroup,
      Duration heartbeat,
      int fallbackInstances,
      String tlsCaFile,
      VerifyPeer verifyPeer,
      Duration maxWait,
      Duration startupWait,
      int maxWaitingThreads) {
    this.uri = uri;
    if (maxWaitingThreads < 1) {
      throw new IllegalArgumentException("max waiting threads must be at least 1: " + maxWaitingThreads);
    }
    this.maxWaitingThreads = maxWaitingThreads;
    this.maxWait = positive(maxWait, "max wait");
    this.startupWait = positive(startupWait, "startup wait");
    this.tlsCaFile = tlsCaFile;
    this.verifyPeer = Objects.requireNonNull(verifyPeer, "verifyPeer");
    this.clusterSeeds = clusterSeeds;
    this.timeout = positive(timeout, "timeout");
    this.connectTimeout = positive(connectTimeout, "connect timeout");
    if (failureThreshold < 1) {
      throw new IllegalArgumentException("failure threshold must be at least 1: " + failureThreshold);
    }
    this.failureThreshold = failureThreshold;
    this.openDuration = positive(openDuration, "open duration");
    if (requestQueueSize < 1) {
      throw new IllegalArgumentException("request queue size must be at least 1: " + requestQueueSize);
    }
    this.requestQueueSize = requestQueueSize;
    this.instanceGroup = Objects.requireNonNull(instanceGroup, "instanceGroup");
    this.heartbeat = positive(heartbeat, "heartbeat");
    if (fallbackInstances < 1) {
      throw new IllegalArgumentException("instances must be at least 1: " + fallbackInstances);
    }
    this.fallbackInstances = fallbackInstances;
  }

  /** A single server, or a Sentinel group ({@code redis-sentinel://host:26379/0#mymaster}). */
  public static RedisConnectionSettings uri(String uri) {
    Objects.requireNonNull(uri, "uri");
    if (uri.trim().isEmpty()) {
      throw new IllegalArgumentException("redis uri is empty");
    }
    return new RedisConnectionSettings(
        uri.trim(), Collections.<String>emptyList(), DEFAULT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_FAILURE_THRESHOLD, DEFAULT_OPEN_DURATION, DEFAULT_REQUEST_QUEUE_SIZE, "default",
        DEFAULT_HEARTBEAT, 1, null, VerifyPeer.FULL, DEFAULT_MAX_WAIT, DEFAULT_STARTUP_WAIT,
        defaultMaxWaitingThreads());
  }

  /** A Redis Cluster, from one or more seed node URIs. */
  public static RedisConnectionSettings cluster(List<String> seeds) {
    if (seeds == null || seeds.isEmpty()) {
      throw new IllegalArgumentException("redis cluster needs at least one seed URI");
    }
    List<String> copy = new ArrayList<>();
    for (String seed : seeds) {
      if (seed == null || seed.trim().isEmpty()) {
        throw new IllegalArgumentException("redis cluster seed URI is empty");
      }
      copy.add(seed.trim());
    }
    return new RedisConnectionSettings(
        null, Collections.unmodifiableList(copy), DEFAULT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_FAILURE_THRESHOLD, DEFAULT_OPEN_DURATION, DEFAULT_REQUEST_QUEUE_SIZE, "default",
        DEFAULT_HEARTBEAT, 1, null, VerifyPeer.FULL, DEFAULT_MAX_WAIT, DEFAULT_STARTUP_WAIT,
        defaultMaxWaitingThreads());
  }

  /** Per decision; past it the rule's on-failure policy applies. Default 50 ms. */
  public RedisConnectionSettings withTimeout(Duration value) {
    return new RedisConnectionSettings(uri, clusterSeeds, value, connectTimeout, failureThreshold,
        openDuration, requestQueueSize, instanceGroup, heartbeat, fallbackInstances,
        tlsCaFile, verifyPeer, maxWait, startupWait, maxWaitingThreads);
  }

  public RedisConnectionSettings withConnectTimeout(Duration value) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, value, failureThreshold,
        openDuration, requestQueueSize, instanceGroup, heartbeat, fallbackInstances,
        tlsCaFile, verifyPeer, maxWait, startupWait, maxWaitingThreads);
  }

  /** Consecutive failures that open the circuit breaker, and how long it stays open. */
  public RedisConnectionSettings withBreaker(int threshold, Duration open) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout, threshold, open,
        requestQueueSize, instanceGroup, heartbeat, fallbackInstances,
        tlsCaFile, verifyPeer, maxWait, startupWait, maxWaitingThreads);
  }

  public RedisConnectionSettings withRequestQueueSize(int value) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, value, instanceGroup, heartbeat, fallbackInstances,
        tlsCaFile, verifyPeer, maxWait, startupWait, maxWaitingThreads);
  }

  /**
   * Instances of one deployment announce themselves under this group name every {@code heartbeat};
   * until the first count arrives, {@code fallbackInstances} is assumed.
   */
  public RedisConnectionSettings withInstances(String group, Duration heartbeatEvery,
      int assumedInstances) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, requestQueueSize, group, heartbeatEvery, assumedInstances,
        tlsCaFile, verifyPeer, maxWait, startupWait, maxWaitingThreads);
  }

  /**
   * For {@code rediss://}: trust the CA certificate(s) in this PEM file (null: the JVM's default
   * trust store, which {@code -Djavax.net.ssl.trustStore} sets), and check the server's certificate
   * as {@code verifyPeer} says.
   */
  public RedisConnectionSettings withTls(String caFile, VerifyPeer verify) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, requestQueueSize, instanceGroup, heartbeat,
        fallbackInstances, caFile, verify, maxWait, startupWait, maxWaitingThreads);
  }

  /**
   * The hard bound on one decision: a reply later than {@link #timeout()} is waited for, while
   * Redis keeps answering other calls, up to this (at least the timeout). See {@link RedisBackend}.
   */
  public RedisConnectionSettings withMaxWait(Duration value) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, requestQueueSize, instanceGroup, heartbeat,
        fallbackInstances, tlsCaFile, verifyPeer, value, startupWait, maxWaitingThreads);
  }

  /** How long the agent's start waits for the first connection (or a definite failure). */
  public RedisConnectionSettings withStartupWait(Duration value) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, requestQueueSize, instanceGroup, heartbeat,
        fallbackInstances, tlsCaFile, verifyPeer, maxWait, value, maxWaitingThreads);
  }

  /**
   * {@code redis.max-waiting-threads}: at most this many request threads wait for a late reply at
   * once; past it a decision is made by its rule's local share at once, so a slow Redis never holds more
   * of the app's threads. Default twice the cores, at least 4.
   */
  public RedisConnectionSettings withMaxWaitingThreads(int value) {
    return new RedisConnectionSettings(uri, clusterSeeds, timeout, connectTimeout,
        failureThreshold, openDuration, requestQueueSize, instanceGroup, heartbeat,
        fallbackInstances, tlsCaFile, verifyPeer, maxWait, startupWait, value);
  }

  public int maxWaitingThreads() {
    return maxWaitingThreads;
  }

  /** Twice the cores, at least 4: enough to keep Redis's pipeline full, few enough to spare the app. */
  public static int defaultMaxWaitingThreads() {
    return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  }

  /** The hard bound on one decision: the timeout, or {@code max-wait} when that is longer. */
  public Duration maxWait() {
    return maxWait.compareTo(timeout) > 0 ? maxWait : timeout;
  }

  public Duration startupWait() {
    return startupWait;
  }

  /** The PEM file of CA certificates to trust for TLS; null for the JVM's default. */
  public String tlsCaFile() {
    return tlsCaFile;
  }

  public VerifyPeer verifyPeer() {
    return verifyPeer;
  }

  /** The single-server or Sentinel URI; null for a cluster. */
  public String uri() {
    return uri;
  }

  /** Cluster seed URIs; empty unless this is a cluster. */
  public List<String> clusterSeeds() {
    return clusterSeeds;
  }

  public boolean isCluster() {
    return uri == null;
  }

  public Duration timeout() {
    return timeout;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public int failureThreshold() {
    return failureThreshold;
  }

  public Duration openDuration() {
    return openDuration;
  }

  public int requestQueueSize() {
    return requestQueueSize;
  }

  public String instanceGroup() {
    return instanceGroup;
  }

  public Duration heartbeat() {
    return heartbeat;
  }

  public int fallbackInstances() {
    return fallbackInstances;
  }

  /** Where: the URI or the cluster's seeds, without passwords. */
  public String address() {
    if (uri != null) {
      return redact(uri);
    }
    StringBuilder out = new StringBuilder("cluster [");
    for (int i = 0; i < clusterSeeds.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(redact(clusterSeeds.get(i)));
    }
    return out.append(']').toString();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("redis ").append(address());
    out.append(" timeout ").append(timeout.toMillis()).append("ms");
    out.append(" max-wait ").append(maxWait().toMillis()).append("ms");
    if (tlsCaFile != null) {
      out.append(" tls ca-file ").append(tlsCaFile);
    }
    if (verifyPeer != VerifyPeer.FULL) {
      out.append(" tls verify-peer ").append(verifyPeer.name().toLowerCase(java.util.Locale.ROOT));
    }
    return out.toString();
  }

  /** The URI with any {@code user:password@} part replaced by {@code ***@}. */
  static String redact(String uri) {
    int scheme = uri.indexOf("://");
    int start = scheme < 0 ? 0 : scheme + 3;
    int at = uri.lastIndexOf('@');
    if (at < start) {
      return uri;
    }
    return uri.substring(0, start) + "***" + uri.substring(at);
  }

  private static Duration positive(Duration value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(what + " must be positive: " + value);
    }
    return value;
  }
}
