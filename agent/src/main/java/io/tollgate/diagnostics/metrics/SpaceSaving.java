package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The counters of the Space-Saving algorithm (Metwally et al.), which {@link HeavyKeys} and {@link
 * EarlyRetryKeys} use to keep the heaviest keys in a fixed number of counters, with the filter of
 * Filtered Space-Saving (Homem and Carvalho, 2010) in front of them, so that a flood of many keys
 * does not replace a counter on nearly every occurrence.
 *
 * <p>The guarantees are Space-Saving's: a key's count is never below its true count and exceeds
 * it by at most its counter's error (what it inherited), which is at most the smallest count;
 * the counts add up to at most the occurrences seen, {@code N}, so the smallest is at most {@code
 * N / capacity}, and a key seen more often than that always has a counter.
 *
 * <p>How: once the counters are full, a key without a counter is counted in one of {@link
 * #filterCells} cells (by its hash). A cell counts the occurrences of its keys without a counter,
 * and a key that loses its counter leaves its count there, so a cell is never below the true
 * count of any of its keys without a counter, and never above the smallest count. A key without
 * a counter takes the smallest counter's place only when its cell has reached the smallest count,
 * starting from the cell's count plus one, as Space-Saving's newcomer starts from the smallest
 * plus one: so the bounds above hold. Space-Saving alone replaced a counter on every occurrence
 * of a key without one (a lock, a scan of the counts and a new counter each, on nearly every
 * refusal of a flood of many keys); with 16 cells per counter a uniform flood of 10,000 keys
 * replaces one on about one occurrence in 13, and the others cost one atomic increment.
 *
 * <p>Memory: {@code capacity} counters (a key and a count each), and once they are full (more
 * keys than counters came) {@link #filterCells} {@code long}s: 16 per counter, rounded down to
 * a power of two (1 KB for 10 counters, 2 KB for 20).
 *
 * <p>A few counters (tens), in an array looked through by hash, not a map: a hit compares the
 * hashes, one {@code equals}, one increment, nothing allocated, no lock. A key without a counter
 * takes no lock either unless its cell has reached the smallest count: then it takes this table's
 * lock to replace a counter, and never waits for it (while another thread replaces one, its cell
 * counts the occurrence, which may then pass the smallest count by the few counted meanwhile, and
 * a newcomer's error with it). A counter is immutable but for its count (final fields, published
 * by a volatile write), so a reader sees it whole; an occurrence counted into a counter as it is
 * being replaced is lost (the old key's count goes to its cell as it was read), as it was before
 * the filter.
 */
final class SpaceSaving<C extends SpaceSaving.Counter> {

  /**
   * One counted key: the key as given, its hash, and its count, which is the counter itself (a
   * {@link LongAdder}: one object per key, not two, so a look at the counts, as a replacement
   * scans them, follows one reference per counter).
   */
  static class Counter extends LongAdder {
    private static final long serialVersionUID = 1L;

    final String key;
    final int hash;

    Counter(String key, long count) {
      this.key = key;
      this.hash = key.hashCode();
      add(count);
    }

    boolean is(String key, int hash) {
      return this.hash == hash && this.key.equals(key);
    }
  }

  /**
   * A new key's counter, starting from the count it inherits plus one: 0 at a free place; with
   * the counters full, what its cell counted before this occurrence (so its count is its cell's).
   * {@code argument} is what the caller passed to {@link #add} (so that a method reference, not a
   * lambda capturing it, makes the counter: nothing is allocated for a key counted already).
   */
  interface NewCounter<C, A> {
    C make(String key, long inherited, A argument);
  }

  /** Cells of the filter per counter. */
  static final int CELLS_PER_COUNTER = 16;

  private final AtomicReferenceArray<C> counters;
  /**
   * Each counter's key hash, beside it: a look for a key without a counter (a flood's common
   * case) compares a few {@code int}s in a row rather than following each counter. Written before
   * its counter, under the lock: a look that sees a hash ahead of its counter compares the counter
   * itself, which decides; one that sees it behind misses the key as it could miss the counter.
   */
  private final AtomicIntegerArray hashes;
  /** Held while a key takes a counter; tried, never waited for. */
  private final ReentrantLock replacing = new ReentrantLock();
  /** The filter's cells, made when the counters are full; a power of two of them. */
  private final int filterCells;
  private volatile AtomicLongArray filter;
  /**
   * The smallest count when last read under the lock: counts only grow and a newcomer starts
   * above the smallest, so the smallest count now is at least this. A key whose cell has not
   * reached it is counted in the filter without taking the lock.
   */
  private volatile long smallestAtLeast;

  SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    counters = new AtomicReferenceArray<>(capacity);
    hashes = new AtomicIntegerArray(capacity);
    filterCells = Integer.highestOneBit(Math.max(2, capacity * CELLS_PER_COUNTER));
  }

  /** The counter of {@code key} (whose hash is {@code hash}), or null when it has none. */
  private C find(String key, int hash) {
    for (int i = 0; i < hashes.length(); i++) {
      if (hashes.get(i) != hash) {
        continue;
      }
      C counter = counters.get(i);
      if (counter != null && counter.is(key, hash)) {
        return counter;
      }
    }
    return null;
  }

  /** Counts one occurrence of {@code key} in its counter and returns it; null when it has none. */
  private C countIfCounted(String key, int hash) {
    C counter = find(key, hash);
    if (counter != null) {
      counter.increment();
    }
    return counter;
  }

  /**
   * Counts one occurrence of {@code key} (whose hash is {@code hash}): its counter's count goes up
   * by one; a key without a counter takes a free one ({@code newCounter} makes it, {@code argument}
   * passed on), or, once they are full, is counted in its cell of the filter, or takes the
   * smallest counter's place when the cell has reached the smallest count. Returns the key's counter,
   * or null when it has none (counted in the filter, or left out while another thread took a
   * free counter).
   */
  <A> C add(String key, int hash, NewCounter<C, A> newCounter, A argument) {
    C counter = countIfCounted(key, hash);
    if (counter != null) {
      return counter;
    }
    AtomicLongArray cells = filter;
    if (cells == null) {
      return takeFreeCounter(key, hash, newCounter, argument);
    }
    int cell = cellOf(hash);
    if (cells.get(cell) + 1 <= smallestAtLeast) {
      cells.incrementAndGet(cell);
      return null; // no heavier than the smallest counter: counted in the filter only
    }
    if (!replacing.tryLock()) {
      cells.incrementAndGet(cell); // another thread is replacing a counter: the filter counts it
      return null;
    }
    try {
      return replaceSmallest(key, hash, cells, cell, newCounter, argument);
    } finally {
      replacing.unlock();
    }
  }

  /** While the counters are not full: a key takes the first free one (the filter made when full). */
  private <A> C takeFreeCounter(String key, int hash, NewCounter<C, A> newCounter, A argument) {
    if (!replacing.tryLock()) {
      return null; // left out, not queued behind another thread taking a counter
    }
    try {
      C counter = countIfCounted(key, hash);
      if (counter != null) {
        return counter;
      }
      AtomicLongArray cells = filter;
      if (cells == null) {
        int free = freePlace();
        if (free >= 0) {
          counter = newCounter.make(key, 0, argument);
          hashes.set(free, hash);
          counters.set(free, counter);
          return counter;
        }
        // full: from now on a key without a counter is counted in the filter first
        cells = new AtomicLongArray(filterCells);
        smallestAtLeast = smallestCount();
        filter = cells;
      }
      return replaceSmallest(key, hash, cells, cellOf(hash), newCounter, argument);
    } finally {
      replacing.unlock();
    }
  }

  /**
   * The lock held, this occurrence of a key without a counter not counted yet: the key takes the
   * smallest counter's place when its cell has counted as often as the smallest (it starts from
   * the cell's count plus this occurrence, and the key it replaces leaves its count in its own
   * cell), else the cell counts it.
   */
  private <A> C replaceSmallest(String key, int hash, AtomicLongArray cells, int cell,
      NewCounter<C, A> newCounter, A argument) {
    C counter = countIfCounted(key, hash);
    if (counter != null) { // it took a counter meanwhile
      return counter;
    }
    int place = smallestPlace();
    C smallest = counters.get(place);
    long min = smallest.sum();
    long counted = cells.get(cell);
    if (counted + 1 <= min) {
      cells.incrementAndGet(cell);
      smallestAtLeast = min;
      return null;
    }
    counter = newCounter.make(key, counted, argument);
    hashes.set(place, hash);
    counters.set(place, counter);
    // the replaced key now has no counter: its cell bounds how often it came, as for any such key
    int itsCell = cellOf(smallest.hash);
    long itsCount = smallest.sum();
    long before = cells.get(itsCell);
    while (before < itsCount && !cells.weakCompareAndSetVolatile(itsCell, before, itsCount)) {
      before = cells.get(itsCell);
    }
    smallestAtLeast = smallestCount();
    return counter;
  }

  /** The first free place, or -1 when the counters are full (the lock held). */
  private int freePlace() {
    for (int i = 0; i < counters.length(); i++) {
      if (counters.get(i) == null) {
        return i;
      }
    }
    return -1;
  }

  /** The smallest counter's place, the counters full (the lock held). */
  private int smallestPlace() {
    int smallest = 0;
    long min = Long.MAX_VALUE;
    for (int i = 0; i < counters.length(); i++) {
      long count = counters.get(i).sum();
      if (count < min) {
        min = count;
        smallest = i;
      }
    }
    return smallest;
  }

  private long smallestCount() {
    return counters.get(smallestPlace()).sum();
  }

  /** The filter's cell of a key's hash: spread, so that keys 10.0.0.1, 10.0.0.2 fall apart. */
  private int cellOf(int hash) {
    int h = hash * 0x9e3779b9;
    return (h ^ (h >>> 16)) & (filterCells - 1);
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
