package io.tollgate.replay;

/**
 * The most units (requests, or their cost) one key sent within any one period, counted exactly:
 * for each request at time {@code t}, the units of the key's requests in {@code (t - period, t]},
 * the very window {@code sliding-log} counts. So a {@code sliding-log} limit of {@link #peak()}
 * would have refused this key nothing, and one unit less would have refused it once at least.
 *
 * <p>Keeps the times of the key's requests of the last period in a ring buffer that starts small
 * and doubles as needed: memory follows the key's requests within one period (8 bytes each, 12
 * with costs other than 1), and all keys together hold at most the requests of one period.
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
    if (size == times.length) {
      grow();
    }
    int at = (head + size) % times.length;
    times[at] = nowNanos;
    int units = (int) Math.min(Integer.MAX_VALUE, Math.max(0, cost));
    if (units != 1 && costs == null) {
      costs = new int[times.length];
      java.util.Arrays.fill(costs, 1);
    }
    if (costs != null) {
      costs[at] = units;
    }
    size++;
    unitsInWindow += units;
    if (unitsInWindow > peak) {
      peak = unitsInWindow;
    }
  }

  long peak() {
    return peak;
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
