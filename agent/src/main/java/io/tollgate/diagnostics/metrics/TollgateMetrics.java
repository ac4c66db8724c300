package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.Collections;
import io.tollgate.limiters.AdaptiveConcurrency;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;

/**
 * Every rule's counters, by rule name, since the agent started. The engine reports each decision
 * once ({@link #record}); JMX and the Prometheus endpoint read from here.
 *
 * <p>A rule's counters are created on its first decision, which is also when its MBean is
 * registered (off the request thread, see {@link JmxExporter}): nothing touches JMX while the
 * application is still starting.
 */
public final class TollgateMetrics {

  /** Bounds the registry should a file cycle through many rule names over the JVM's life. */
  static final int MAX_RULES = 1_000;

  private static final ConcurrentMap<String, RuleMetrics> RULES = new ConcurrentHashMap<>();
  /** The adaptive-concurrency rules in force, by name: their limits are gauges. */
  private static volatile Map<String, AdaptiveConcurrency> adaptive = Collections.emptyMap();
  /** The rules in force that lease tokens from Redis, by name: their leases' counters. */
  private static volatile Map<String, LeaseCounts> leasing = Collections.emptyMap();

  private TollgateMetrics() {}

  /**
   * Counts one rule's verdict on one request, with the decision's latency: allowed, refused, or
   * (a shadow rule's) would-refuse; and whether the backend failed and a fallback decided.
   */
  public static void record(
      String rule, boolean allowed, boolean shadow, String key, boolean fallback,
      long decisionNanos) {
    record(forRule(rule), allowed, shadow, key, fallback, decisionNanos);
  }

  /**
   * As {@link #record(String, boolean, boolean, String, boolean, long)}, on counters the caller
   * keeps ({@link #of}), so that a request looks up no map by the rule's name; null counts nothing.
   */
  public static void record(
      RuleMetrics metrics, boolean allowed, boolean shadow, String key, boolean fallback,
      long decisionNanos) {
    record(metrics, allowed, shadow, key, fallback, decisionNanos, 1);
  }

  /**
   * As above, where the decision's time stands for {@code timedFor} decisions: the engine times
   * one local decision in several ({@code DecisionTiming}), and adds it for the others it did not
   * time, so that the sum estimates them all; 0 when this one was not timed (it is counted, its
   * time is in another's).
   */
  public static void record(
      RuleMetrics metrics, boolean allowed, boolean shadow, String key, boolean fallback,
      long decisionNanos, long timedFor) {
    if (metrics == null) {
      return;
    }
    if (allowed) {
      metrics.allowed();
    } else if (shadow) {
      metrics.wouldRefuse(key);
    } else {
      metrics.refused(key);
    }
    if (fallback) {
      metrics.backendError();
    }
    if (timedFor > 0) {
      metrics.decisionTook(decisionNanos, timedFor);
    }
  }

  /**
   * Counts a request of {@code rule} refused before the {@code Retry-After} its key was last
   * given: told {@code toldSeconds}, it came back after {@code afterNanos}. {@code shown} makes
   * the key as the metrics show it (as the refusal log does), asked only for a key not counted yet.
   */
  public static void earlyRetry(String rule, String key, UnaryOperator<String> shown,
      long toldSeconds, long afterNanos) {
    RuleMetrics metrics = forRule(rule);
    if (metrics != null) {
      metrics.earlyRetry(key, shown, toldSeconds, afterNanos);
    }
  }

  /**
   * As {@link #earlyRetry(String, String, UnaryOperator, long, long)}, on counters the caller
   * keeps ({@link #of}): a flood's refusals, nearly all early retries, look up no map by name.
   * Null counts nothing.
   */
  public static void earlyRetry(RuleMetrics metrics, String key, UnaryOperator<String> shown,
      long toldSeconds, long afterNanos) {
    if (metrics != null) {
      metrics.earlyRetry(key, shown, toldSeconds, afterNanos);
    }
  }

  /**
   * The counters of {@code rule}, created (and its MBean registered) on first use; null once
   * {@value #MAX_RULES} rules have counters. For a caller that keeps them: the same object for
   * the same name as long as the agent runs.
   */
  public static RuleMetrics of(String rule) {
    return forRule(rule);
  }

  /** The counters of {@code rule}, created (and its MBean registered) on first use. */
  static RuleMetrics forRule(String rule) {
    RuleMetrics metrics = RULES.get(rule);
    if (metrics != null) {
      return metrics;
    }
    if (RULES.size() >= MAX_RULES) {
      return null;
    }
    RuleMetrics created = new RuleMetrics(rule);
    metrics = RULES.putIfAbsent(rule, created);
    if (metrics != null) {
      return metrics;
    }
    JmxExporter.registerLater(created);
    return created;
  }

  /** The counters of {@code rule}, or null before its first decision; never creates them. */
  public static RuleMetrics find(String rule) {
    return RULES.get(rule);
  }

  /** Every rule's counters, by name. */
  public static List<RuleMetrics> all() {
    List<RuleMetrics> all = new ArrayList<>(RULES.values());
    Collections.sort(all, (a, b) -> a.getRule().compareTo(b.getRule()));
    return all;
  }

  /**
   * The adaptive-concurrency rules now in force (each rules file applied replaces them): their
   * limit, in flight and latencies are shown with their rule's counters.
   */
  public static void showAdaptive(Map<String, AdaptiveConcurrency> rules) {
    adaptive = Collections.unmodifiableMap(new HashMap<>(rules));
  }

  /** The state the gauges of an adaptive rule show, or null (another algorithm, no request yet). */
  static AdaptiveConcurrency.State adaptiveState(String rule) {
    AdaptiveConcurrency algorithm = adaptive.get(rule);
    return algorithm == null ? null : algorithm.shownState();
  }

  /**
   * The rules now in force that lease tokens from Redis ({@code lease-tokens}), with their leases'
   * counters (each rules file applied replaces them): shown beside their rules' counters.
   */
  public static void showLeases(Map<String, LeaseCounts> rules) {
    leasing = Collections.unmodifiableMap(new HashMap<>(rules));
  }

  /** What the leases of {@code rule} did, or null when it does not lease (now). */
  public static LeaseCounts leases(String rule) {
    return leasing.get(rule);
  }

  /** For unit tests. */
  static void reset() {
    RULES.clear();
    leasing = Collections.emptyMap();
  }
}
