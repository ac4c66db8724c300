package io.tollgate.stores;

import io.tollgate.limiters.Verdict;

/**
 * Where one rule's per-key state lives, and the one place a decision on it is made atomically:
 * in this process ({@link LocalLimiterStore}) or on a shared server such as Redis.
 */
public interface LimiterStore {

  /**
   * Decides one request of {@code cost} units for {@code key}, and writes the outcome into
   * {@code verdict}. Thread-safe; concurrent callers on the same key each see a consistent state,
   * so the last token goes to exactly one of them.
   */
  void decide(String key, long cost, Verdict verdict);

  /**
   * As {@link #decide(String, long, Verdict)}, for a request the agent may hold no later than
   * {@code holdDeadlineNanos} (a {@link System#nanoTime()}): a store that can make a request wait
   * for a permit ({@code adaptive-concurrency} with {@code max-wait}) waits no longer.
   */
  default void decide(String key, long cost, Verdict verdict, long holdDeadlineNanos) {
    decide(key, cost, verdict);
  }

  /**
   * Whether a decision here may hold the request for longer than a local update takes: a round
   * trip to a shared server, or a wait for a permit ({@code max-wait}). The engine times such
   * decisions every time (the time a request is held is bounded), and the others only now and
   * then, for the metrics. True unless the store knows better.
   */
  default boolean mayHold() {
    return true;
  }

  /** Gives back what a finished request held (the concurrency algorithms only). */
  default void release(String key, long cost) {}

  /**
   * Gives back what an admitted request held when it has ended, {@code latencyNanos} after its
   * admission, failed (5xx, exception, timeout) or not: the {@code adaptive-concurrency} algorithm
   * learns from it ({@link io.tollgate.limiters.RateLimitAlgorithm#complete}). By default, {@link
   * #release}.
   */
  default void complete(String key, long cost, long latencyNanos, boolean failed) {
    release(key, cost);
  }

  /**
   * Charges {@code delta} more units to {@code key} ({@code delta > 0}) or gives that many back
   * ({@code delta < 0}), without deciding anything: the correction of a request's cost once it is
   * known ({@code cost-header}), or the refund of a charge that another limit of the same rule
   * refused. See {@link io.tollgate.limiters.RateLimitAlgorithm#adjust}.
   */
  default void adjust(String key, long delta) {}

  /** The number of keys this store holds now (approximate). */
  long estimatedKeys();
}
