package io.tollgate.diagnostics.metrics;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of the Space-Saving algorithm (Metwally et al.), which {@link HeavyKeys} and {@link
 * EarlyRetryKeys} use to keep the heaviest keys in a fixed number of counters: a key not among
 * full counters takes the smallest counter's place, and starts from its count, so that a key's
 * count is never below its true count and exceeds it by at most the count it inherited.
 *
 * <p>A few counters (tens), in an array looked through by hash, not a map: under a flood of new
 * keys (many clients, each refused) nearly every occurrence replaces a counter, and a map made
 * that a removal, an insertion and an entry each time; here it is one array write. Finding a key
 * counted already reads the counters' hashes, as a map's bucket would, and allocates nothing.
 *
 * <p>Reads take no lock; {@link #replace} and {@link #put} are for one thread at a time (the
 * caller's lock). A counter is immutable but for its count (final fields, published by a volatile
 * write), so a reader sees it whole; a reader that counts into a counter being replaced loses that
 * one occurrence, as the old key's count is dropped anyway.
 */
final class SpaceSaving<C extends SpaceSaving.Counter> {

  /** One counted key: the key as given, its hash, its count. */
  static class Counter {
    final String key;
    final int hash;
    final LongAdder count = new LongAdder();

    Counter(String key, long count) {
      this.key = key;
      this.hash = key.hashCode();
      this.count.add(count);
    }

    boolean is(String key, int hash) {
      return this.hash == hash && this.key.equals(key);
    }
  }

  private final AtomicReferenceArray<C> counters;

  SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    counters = new AtomicReferenceArray<>(capacity);
  }

  /** The counter of {@code key} (whose hash is {@code hash}), or null when it has none. */
  C find(String key, int hash) {
    for (int i = 0; i < counters.length(); i++) {
      C counter = counters.get(i);
      if (counter == null) {
        return null; // counters fill from the front and are never removed
      }
      if (counter.is(key, hash)) {
        return counter;
      }
    }
    return null;
  }

  /**
   * Where the next new key goes: a free place if there is one, else the smallest counter's (the
   * caller's lock held). Its count, {@link #inherited}, is what the new key starts from.
   */
  int placeForNew() {
    int smallest = -1;
    long min = Long.MAX_VALUE;
    for (int i = 0; i < counters.length(); i++) {
      C counter = counters.get(i);
      if (counter == null) {
        return i;
      }
      long count = counter.count.sum();
      if (count < min) {
        min = count;
        smallest = i;
      }
    }
    return smallest;
  }

  /** The count the key placed at {@code place} inherits: 0 at a free place. */
  long inherited(int place) {
    C counter = counters.get(place);
    return counter == null ? 0 : counter.count.sum();
  }

  /** Puts {@code counter} at {@code place}, in place of whatever was there (the lock held). */
  void put(int place, C counter) {
    counters.set(place, counter);
  }

  /** The counters, for the metrics to read. */
  java.util.List<C> all() {
    java.util.List<C> all = new java.util.ArrayList<>(counters.length());
    for (int i = 0; i < counters.length(); i++) {
      C counter = counters.get(i);
      if (counter != null) {
        all.add(counter);
      }
    }
    return all;
  }
}
