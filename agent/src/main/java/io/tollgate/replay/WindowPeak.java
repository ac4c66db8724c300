package io.tollgate.replay;

/**
 * The most units (requests, or their cost) one key sent within any one period, counted exactly:
 * for each request at time {@code t}, the units of the key's requests in {@code (t - period, t]},
 * the very window {@code sliding-log} counts. So a {@code sliding-log} limit of {@link #peak()}
 * would have refused this key nothing, and one unit less would have refused it once at least.
 *
 * <p>Keeps the times of the key's requests of the last period in a ring buffer that starts small
 * and doubles as needed, one entry per distinct time: requests logged at the same instant are
 * one entry with their units summed (they enter and leave the window together, so the peak is
 * the same). So memory follows the distinct times of the key's requests within one period (8
 * bytes each, 12 once an entry holds other than 1 unit), not their number: a log stamped by the
 * second (NCSA) holds at most one entry per second of the period whatever its rate, where one
 * entry per request took a burst of millions of lines in one second past any heap (issue 28).
 */
final class WindowPeak {

  private static final long[] EMPTY = new long[0];

  private long[] times = EMPTY;
  /** The cost of each request in {@link #times}; null while every cost has been 1. */
  private int[] costs;
  private int head;
  private int size;
  private long unitsInWindow;
  private long peak;

  /** One request of {@code cost} units at {@code nowNanos} (never earlier than the last one). */
  void add(long nowNanos, long cost, long periodNanos) {
    while (size > 0 && nowNanos - times[head] >= periodNanos) {
      unitsInWindow -= costs == null ? 1 : costs[head];
      head = (head + 1) % times.length;
      size--;
    }
    int units = (int) Math.min(Integer.MAX_VALUE, Math.max(0, cost));
    if (units == 0) {
      return; // takes no room in the window and moves no sum
    }
    if (size > 0) {
      int last = (head + size - 1) % times.length;
      int lastUnits = costs == null ? 1 : costs[last];
      if (times[last] == nowNanos && lastUnits <= Integer.MAX_VALUE - units) {
        if (costs == null) {
          costs = new int[times.length];
          java.util.Arrays.fill(costs, 1);
        }
        costs[last] = lastUnits + units;
        count(units);
        return;
      }
    }
    if (size == times.length) {
      grow();
    }
    int at = (head + size) % times.length;
    times[at] = nowNanos;
    if (units != 1 && costs == null) {
      costs = new int[times.length];
      java.util.Arrays.fill(costs, 1);
    }
    if (costs != null) {
      costs[at] = units;
    }
    size++;
    count(units);
  }

  private void count(int units) {
    unitsInWindow += units;
    if (unitsInWindow > peak) {
      peak = unitsInWindow;
    }
  }

  long peak() {
    return peak;
  }

  /** The entries held now: the distinct times of the key's requests within the last period. */
  int heldTimes() {
    return size;
  }

  private void grow() {
    int capacity = times.length == 0 ? 2 : times.length * 2;
    long[] newTimes = new long[capacity];
    int[] newCosts = costs == null ? null : new int[capacity];
    for (int i = 0; i < size; i++) {
      int from = (head + i) % times.length;
      newTimes[i] = times[from];
      if (newCosts != null) {
        newCosts[i] = costs[from];
      }
    }
    times = newTimes;
    costs = newCosts;
    head = 0;
  }
}
