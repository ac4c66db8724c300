package io.tollgate.diagnostics.metrics;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The replacement step of the Space-Saving algorithm (Metwally et al.), which {@link HeavyKeys}
 * and {@link EarlyRetryKeys} use to keep the heaviest keys in a fixed number of counters: a key
 * not among full counters takes the smallest counter's place, and starts from its count, so that
 * a key's count is never below its true count and exceeds it by at most the count it inherited.
 */
final class SpaceSaving {

  private SpaceSaving() {}

  /**
   * Removes the counter with the smallest count from {@code counters} (the caller holds whatever
   * keeps other replacements out) and returns that count, which the new key starts from (plus its
   * own occurrence).
   */
  static <C> long evictSmallest(Map<String, C> counters, Function<C, LongAdder> countOf) {
    String minKey = null;
    long min = Long.MAX_VALUE;
    for (Map.Entry<String, C> e : counters.entrySet()) {
      long count = countOf.apply(e.getValue()).sum();
      if (count < min) {
        min = count;
        minKey = e.getKey();
      }
    }
    counters.remove(minKey);
    return min;
  }
}
