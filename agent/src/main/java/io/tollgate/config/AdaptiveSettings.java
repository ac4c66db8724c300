package io.tollgate.config;

/**
 * The settings of {@code algorithm: adaptive-concurrency}: the bounds and start of the limit it
 * learns ({@code min}, {@code initial}, {@code max}, defaults filled in by the parser) and how long
 * a request may wait for a permit ({@code max-wait}). All 0 for the other algorithms.
 */
public final class AdaptiveSettings extends ConfigValue {

  private final int min;
  private final int initial;
  private final int max;
  private final long maxWaitNanos;

  AdaptiveSettings(int min, int initial, int max, long maxWaitNanos) {
    this.min = min;
    this.initial = initial;
    this.max = max;
    this.maxWaitNanos = maxWaitNanos;
  }

  @Override
  Object[] fields() {
    return new Object[] {min, initial, max, maxWaitNanos};
  }

  public int min() {
    return min;
  }

  public int initial() {
    return initial;
  }

  public int max() {
    return max;
  }

  /** {@code max-wait}; 0 = refuse at once. */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }
}
