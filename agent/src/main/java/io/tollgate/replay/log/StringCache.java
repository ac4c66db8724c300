package io.tollgate.replay.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strings of byte ranges, reusing the String of an equal range seen before: a log repeats its
 * clients, user agents and referers on line after line, and one String for each saves decoding
 * and, in the reorder buffer and the replay's own maps, memory. Direct-mapped (a new value
 * replaces the one in its slot), hashed on the length and the first and last eight bytes, so a
 * lookup costs a few operations and one vectorised comparison. Values longer than 512 bytes are
 * not cached.
 */
final class StringCache {

  private static final int MAX_LENGTH = 512;

  private final int mask;
  private final byte[][] keys;
  private final String[] values;

  /** {@code size}: a power of two. */
  StringCache(int size) {
    this.mask = size - 1;
    this.keys = new byte[size][];
    this.values = new String[size];
  }

  String get(byte[] b, int s, int e) {
    int length = e - s;
    if (length > MAX_LENGTH || length < 8) {
      return length == 0 ? "" : new String(b, s, length, StandardCharsets.UTF_8);
    }
    long h = Bytes.longAt(b, s) * 31 + Bytes.longAt(b, e - 8) + length;
    h *= 0x9E3779B97F4A7C15L;
    int slot = (int) (h >>> 40) & mask;
    byte[] key = keys[slot];
    if (key != null && key.length == length && Arrays.equals(b, s, e, key, 0, length)) {
      return values[slot];
    }
    String value = new String(b, s, length, StandardCharsets.UTF_8);
    keys[slot] = Arrays.copyOfRange(b, s, e);
    values[slot] = value;
    return value;
  }
}
