package io.tollgate.replay.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte searches for the parsers' hot loops. */
final class Bytes {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

  private Bytes() {}

  /**
   * The index of the first {@code '\n'} in {@code b[from, to)}, or -1. Eight bytes at a time (the
   * classic "has a zero byte" test on the word XOR newlines): finding line ends is a quarter of
   * the reading time when done byte by byte. In little-endian order the lowest flagged byte is
   * always a true match.
   */
  static int indexOfNewline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ NEWLINES;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** Eight bytes from {@code b[i]}, little-endian, for hashing. */
  static long longAt(byte[] b, int i) {
    return (long) LONGS.get(b, i);
  }
}
