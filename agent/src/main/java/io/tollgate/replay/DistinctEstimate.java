package io.tollgate.replay;

import java.nio.charset.StandardCharsets;

/**
 * How many distinct strings were added, estimated in fixed memory: HyperLogLog with 2^14 one-byte
 * registers (16 KB), a standard error of about 0.8%, over a 64-bit hash of each string's UTF-8
 * bytes. Used for the keys of a rule beyond those it tracks exactly.
 */
final class DistinctEstimate {

  private static final int P = 14;
  private static final int M = 1 << P;

  private final byte[] registers = new byte[M];

  void add(String value) {
    long hash = hash(value);
    int index = (int) (hash >>> (64 - P));
    int rank = Long.numberOfLeadingZeros((hash << P) | (1L << (P - 1))) + 1;
    if (rank > registers[index]) {
      registers[index] = (byte) rank;
    }
  }

  /** The estimated number of distinct values added; 0 when none was. */
  long estimate() {
    double sum = 0;
    int zeros = 0;
    for (byte r : registers) {
      sum += 1.0 / (1L << r);
      if (r == 0) {
        zeros++;
      }
    }
    if (zeros == M) {
      return 0;
    }
    double alpha = 0.7213 / (1 + 1.079 / M);
    double raw = alpha * M * M / sum;
    if (raw <= 2.5 * M && zeros > 0) {
      return Math.round(M * Math.log((double) M / zeros)); // linear counting for small sets
    }
    return Math.round(raw);
  }

  /** FNV-1a over the UTF-8 bytes, then the MurmurHash3 finalizer to spread the bits. */
  static long hash(String value) {
    long h = 0xcbf29ce484222325L;
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93fe53a87cdL;
    h ^= h >>> 33;
    return h;
  }
}
