package io.tollgate.diagnostics.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The keys of one rule that retried earliest most often, in bounded memory: the Space-Saving
 * algorithm as {@link HeavyKeys} counts refused keys, each counter also holding how early its
 * key's last early retry came. Fed only on an early retry, which is a refusal already: the
 * allowed requests never reach it. Counters are found by the key as given, so that a key already
 * counted costs a look through the counters, an increment and two writes, and nothing is
 * allocated; a key without a counter, one atomic increment of its filter cell, and seldom a
 * replacement ({@link SpaceSaving}: under a flood of many keys, about one early retry in 13; the
 * filter is 2 KB once the 20 counters are full). A key is shown
 * (cut short, made printable) when the counters are read ({@link #top}), not when it gets a
 * counter: under a flood of new keys counters are replaced often, and a string made
 * there for each would be read by nobody.
 */
final class EarlyRetryKeys {

  /** Counters kept: twice the keys shown, so that the shown ones' counts are seldom estimates. */
  static final int CAPACITY = 2 * RuleMetrics.TOP_KEYS;

  private static final class Counter extends SpaceSaving.Counter {
    private static final long serialVersionUID = 1L;
    private static final VarHandle TOLD_SECONDS;
    private static final VarHandle AFTER_NANOS;

    static {
      try {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        TOLD_SECONDS = lookup.findVarHandle(Counter.class, "toldSeconds", long.class);
        AFTER_NANOS = lookup.findVarHandle(Counter.class, "afterNanos", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    /** How the metrics show the key. */
    final UnaryOperator<String> shownBy;
    /**
     * The last early retry's figures, written together: a reader may see one retry's told and the
     * next's after. Written by release stores ({@link #lastRetry}): a flood's refusals, nearly all
     * early retries, pay no fence for what only the metrics read.
     */
    volatile long toldSeconds;
    volatile long afterNanos;

    Counter(String key, UnaryOperator<String> shownBy, long count) {
      super(key, count);
      this.shownBy = shownBy;
    }

    void lastRetry(long toldSeconds, long afterNanos) {
      if (this.toldSeconds != toldSeconds) { // a flood is told the same for a second at least
        TOLD_SECONDS.setRelease(this, toldSeconds);
      }
      AFTER_NANOS.setRelease(this, afterNanos);
    }
  }

  /** Never waits: a flood of many keys retrying early does not queue every refusal of the rule. */
  private final SpaceSaving<Counter> counters = new SpaceSaving<>(CAPACITY);

  /**
   * One early retry of {@code key}, told {@code toldSeconds}, back after {@code afterNanos};
   * {@code shown} makes the key as the metrics show it.
   */
  void add(String key, UnaryOperator<String> shown, long toldSeconds, long afterNanos) {
    // a key not among the counters takes a free one, or the smallest's place and count
    Counter counter = counters.add(key, key.hashCode(), EarlyRetryKeys::newCounter, shown);
    if (counter != null) { // null: another thread was adding a key, and this retry is left out
      counter.lastRetry(toldSeconds, afterNanos);
    }
  }

  private static Counter newCounter(String key, long inherited, UnaryOperator<String> shown) {
    return new Counter(key, shown, inherited + 1);
  }

  /**
   * The {@code n} keys that retried early most often, most first; two keys shown alike (cut
   * short) are one, with the figures of the one that retried early more often.
   */
  List<EarlyRetryKey> top(int n) {
    Map<String, EarlyRetryKey> byShown = new HashMap<>(CAPACITY * 2);
    for (Counter c : counters.all()) {
      String shown = c.shownBy.apply(c.key);
      EarlyRetryKey key =
          new EarlyRetryKey(shown, c.sum(), c.toldSeconds, c.afterNanos / 1e9);
      EarlyRetryKey same = byShown.get(shown);
      if (same != null) {
        EarlyRetryKey more = same.count() >= key.count() ? same : key;
        key = new EarlyRetryKey(shown, same.count() + key.count(), more.toldSeconds(),
            more.cameBackAfterSeconds());
      }
      byShown.put(shown, key);
    }
    List<EarlyRetryKey> all = new ArrayList<>(byShown.values());
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
