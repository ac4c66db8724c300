package io.tollgate.diagnostics.metrics;

import java.util.function.ToLongFunction;

/**
 * The replacement step of the Space-Saving algorithm (Metwally et al.), which {@link HeavyKeys}
 * and {@link EarlyRetryKeys} use to keep the heaviest keys in a fixed number of counters: a key
 * not among full counters takes the smallest counter's place, and starts from its count, so that
 * a key's count is never below its true count and exceeds it by at most the count it inherited.
 *
 * <p>Under a flood of new keys (many clients, each refused) nearly every refusal is such a
 * replacement, so the search walks the counters themselves: no map entry is made per counter
 * looked at (a {@code ConcurrentHashMap}'s entry set makes one each), and the caller removes the
 * smallest by the key it holds.
 */
final class SpaceSaving {

  private SpaceSaving() {}

  /**
   * The counter with the smallest count of {@code counters} (at least one; the caller holds
   * whatever keeps other replacements out), for the caller to remove and replace.
   */
  static <C> C smallest(Iterable<C> counters, ToLongFunction<C> countOf) {
    C smallest = null;
    long min = Long.MAX_VALUE;
    for (C counter : counters) {
      long count = countOf.applyAsLong(counter);
      if (count < min) {
        min = count;
        smallest = counter;
      }
    }
    return smallest;
  }
}
