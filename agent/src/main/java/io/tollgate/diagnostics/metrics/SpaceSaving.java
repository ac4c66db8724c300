package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

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
 * <p>A key counted already takes no lock; a key not counted yet takes this table's lock to
 * replace a counter, and never waits for it: while another thread replaces one, such a key is
 * left out of this count (a flood of new keys, each refused, must not queue every refusal behind
 * one lock; the heavy keys, the ones worth showing, are among the counters and counted without
 * it). A counter is immutable but for its count (final fields, published by a volatile write), so
 * a reader sees it whole; a reader that counts into a counter being replaced loses that one
 * occurrence, as the old key's count is dropped anyway.
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

  /**
   * A new key's counter, starting from the count it inherits (0 at a free place) plus one; {@code
   * argument} is what the caller passed to {@link #add} (so that a method reference, not a lambda
   * capturing it, makes the counter: nothing is allocated for a key counted already).
   */
  interface NewCounter<C, A> {
    C make(String key, long inherited, A argument);
  }

  private final AtomicReferenceArray<C> counters;
  /** Held while a key not counted yet takes a counter; tried, never waited for. */
  private final ReentrantLock replacing = new ReentrantLock();

  SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    counters = new AtomicReferenceArray<>(capacity);
  }

  /** The counter of {@code key} (whose hash is {@code hash}), or null when it has none. */
  private C find(String key, int hash) {
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
   * Counts one occurrence of {@code key} (whose hash is {@code hash}): its counter's count goes up
   * by one, or, for a key not counted yet, {@code newCounter} makes it one in a free place or in
   * the smallest counter's place, from that counter's count ({@code argument} passed on to it).
   * Returns the key's counter, or null when another thread was replacing a counter and this
   * occurrence was left out.
   */
  <A> C add(String key, int hash, NewCounter<C, A> newCounter, A argument) {
    C counter = find(key, hash);
    if (counter == null) {
      if (!replacing.tryLock()) {
        return null; // another thread is replacing a counter: left out, not queued behind it
      }
      try {
        counter = find(key, hash);
        if (counter == null) {
          int place = placeForNew();
          counter = newCounter.make(key, inherited(place), argument);
          counters.set(place, counter);
          return counter;
        }
      } finally {
        replacing.unlock();
      }
    }
    counter.count.increment();
    return counter;
  }

  /**
   * Where the next new key goes: a free place if there is one, else the smallest counter's (the
   * lock held). Its count, {@link #inherited}, is what the new key starts from.
   */
  private int placeForNew() {
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
  private long inherited(int place) {
    C counter = counters.get(place);
    return counter == null ? 0 : counter.count.sum();
  }

  /** The counters, for the metrics to read. */
  List<C> all() {
    List<C> all = new ArrayList<>(counters.length());
    for (int i = 0; i < counters.length(); i++) {
      C counter = counters.get(i);
      if (counter != null) {
        all.add(counter);
      }
    }
    return all;
  }
}
