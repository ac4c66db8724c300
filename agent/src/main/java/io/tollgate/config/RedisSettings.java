package io.tollgate.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The {@code redis} section: either one {@code uri} or a {@code cluster} of seed URIs. */
public final class RedisSettings {
  /** The default per-decision timeout: 50ms. */
  public static final long DEFAULT_TIMEOUT_NANOS = 50_000_000L;

  private final String uri;
  private final List<String> cluster;
  private final long timeoutNanos;

  public RedisSettings(String uri, List<String> cluster, long timeoutNanos) {
    this.uri = uri;
    this.cluster =
        cluster == null
            ? Collections.<String>emptyList()
            : Collections.unmodifiableList(new ArrayList<>(cluster));
    this.timeoutNanos = timeoutNanos;
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

  @Override
  public String toString() {
    return "RedisSettings{uri="
        + redact(uri)
        + ", cluster="
        + cluster.size()
        + " seed(s), timeout="
        + Durations.format(timeoutNanos)
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
