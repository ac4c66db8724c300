package io.tollgate.replay;

import java.util.Arrays;

/**
 * A rule's requests per minute of log time, allowed and would-refuse: one entry per minute that
 * had any (the replay's clock never goes back, so minutes come in order), 24 bytes each.
 */
final class MinuteTimeline {

  private long[] minutes = new long[16];
  private long[] allowed = new long[16];
  private long[] refused = new long[16];
  private int size;

  /** One request at {@code epochMillis}, no earlier than the last one. */
  void add(long epochMillis, boolean wasRefused) {
    long minute = Math.floorDiv(epochMillis, 60_000L);
    if (size == 0 || minutes[size - 1] != minute) {
      if (size == minutes.length) {
        minutes = Arrays.copyOf(minutes, size * 2);
        allowed = Arrays.copyOf(allowed, size * 2);
        refused = Arrays.copyOf(refused, size * 2);
      }
      minutes[size] = minute;
      allowed[size] = 0;
      refused[size] = 0;
      size++;
    }
    if (wasRefused) {
      refused[size - 1]++;
    } else {
      allowed[size - 1]++;
    }
  }

  /** How many minutes had requests. */
  int size() {
    return size;
  }

  /** The {@code i}th minute with requests, in minutes since the epoch. */
  long minute(int i) {
    return minutes[i];
  }

  long allowed(int i) {
    return allowed[i];
  }

  long refused(int i) {
    return refused[i];
  }

  /** The index of the minute with the most requests (the first of equals), or -1 for none. */
  int busiest() {
    int best = -1;
    long most = -1;
    for (int i = 0; i < size; i++) {
      long n = allowed[i] + refused[i];
      if (n > most) {
        most = n;
        best = i;
      }
    }
    return best;
  }
}
