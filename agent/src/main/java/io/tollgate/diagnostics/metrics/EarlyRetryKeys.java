package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The keys of one rule that retried earliest most often, in bounded memory: the Space-Saving
 * algorithm as {@link HeavyKeys} counts refused keys, each counter also holding how early its
 * key's last early retry came. Fed only on an early retry, which is a refusal already: the
 * allowed requests never reach it.
 */
final class EarlyRetryKeys {

  /** Counters kept: twice the keys shown, so that the shown ones' counts are seldom estimates. */
  static final int CAPACITY = 2 * RuleMetrics.TOP_KEYS;

  private static final class Counter {
    final LongAdder count = new LongAdder();
    /** The last early retry's figures, written together: a reader may see one retry's told and the next's after. */
    volatile long toldSeconds;
    volatile long afterNanos;

    Counter(long count) {
      this.count.add(count);
    }
  }

  private final ConcurrentHashMap<String, Counter> counters =
      new ConcurrentHashMap<>(CAPACITY * 2);

  /** One early retry of {@code key} (as shown), told {@code toldSeconds}, back after {@code afterNanos}. */
  void add(String key, long toldSeconds, long afterNanos) {
    Counter counter = counters.get(key);
    if (counter == null) {
      counter = counterFor(key);
    } else {
      counter.count.increment();
    }
    counter.toldSeconds = toldSeconds;
    counter.afterNanos = afterNanos;
  }

  /** A key not among the counters: it takes a free one, or the smallest's place and count. */
  private synchronized Counter counterFor(String key) {
    Counter counter = counters.get(key);
    if (counter != null) {
      counter.count.increment();
      return counter;
    }
    long start = 1;
    if (counters.size() >= CAPACITY) {
      String minKey = null;
      long min = Long.MAX_VALUE;
      for (Map.Entry<String, Counter> e : counters.entrySet()) {
        long count = e.getValue().count.sum();
        if (count < min) {
          min = count;
          minKey = e.getKey();
        }
      }
      counters.remove(minKey);
      start = min + 1;
    }
    counter = new Counter(start);
    counters.put(key, counter);
    return counter;
  }

  /** The {@code n} keys that retried early most often, most first. */
  List<EarlyRetryKey> top(int n) {
    List<EarlyRetryKey> all = new ArrayList<>(counters.size());
    for (Map.Entry<String, Counter> e : counters.entrySet()) {
      Counter c = e.getValue();
      all.add(new EarlyRetryKey(e.getKey(), c.count.sum(), c.toldSeconds, c.afterNanos / 1e9));
    }
    Collections.sort(all, (a, b) -> {
      int byCount = Long.compare(b.count(), a.count());
      return byCount != 0 ? byCount : a.key().compareTo(b.key());
    });
    return all.size() <= n ? all : new ArrayList<>(all.subList(0, Math.max(0, n)));
  }

  /** Seconds as the log and JMX show them: one decimal, a dot whatever the locale. */
  static String seconds(double seconds) {
    return String.format(Locale.ROOT, "%.1f", seconds);
  }
}
