package io.tollgate.replay;

/**
 * How many keys sent how many requests, in buckets that double: 1, 2-3, 4-7, 8-15... (bucket
 * {@code b} holds {@code [2^b, 2^(b+1))}), with how many of each bucket's keys were refused.
 */
final class KeyHistogram {

  static final int BUCKETS = 64;

  final long[] keys = new long[BUCKETS];
  final long[] refusedKeys = new long[BUCKETS];

  void add(long requests, boolean refused) {
    int bucket = bucketOf(requests);
    keys[bucket]++;
    if (refused) {
      refusedKeys[bucket]++;
    }
  }

  static int bucketOf(long requests) {
    return 63 - Long.numberOfLeadingZeros(Math.max(1, requests));
  }

  /** The bucket's label: {@code 1}, {@code 2-3}, {@code 4-7}... */
  static String label(int bucket) {
    long low = 1L << bucket;
    long high = bucket == 62 ? Long.MAX_VALUE : (1L << (bucket + 1)) - 1;
    return low == high ? Long.toString(low) : low + "-" + high;
  }

  /** The lowest bucket with a key, or -1 when there is none. */
  int lowest() {
    for (int b = 0; b < BUCKETS; b++) {
      if (keys[b] > 0) {
        return b;
      }
    }
    return -1;
  }

  /** The highest bucket with a key, or -1 when there is none. */
  int highest() {
    for (int b = BUCKETS - 1; b >= 0; b--) {
      if (keys[b] > 0) {
        return b;
      }
    }
    return -1;
  }
}
