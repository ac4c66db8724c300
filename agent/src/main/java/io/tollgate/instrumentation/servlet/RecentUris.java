package io.tollgate.instrumentation.servlet;

import java.nio.charset.StandardCharsets;

/**
 * The request URIs a container gave as ISO-8859-1 bytes lately, as strings: a request whose URI
 * is still kept gets the same string again instead of a copy of its bytes (~48 bytes for
 * {@code /hello}, on every request of a busy path).
 *
 * <p>Direct-mapped by the URI's length and last bytes, without a lock: a slot holds a string,
 * which is safe to hand between threads as it is; two requests that race for a slot at most make
 * the same string twice. A URI not kept costs one comparison more than before.
 */
final class RecentUris {

  /** A power of two: the URIs kept. */
  static final int SLOTS = 32;

  /** URIs seen lately, each in the slot of {@link #slotOf}: read and written without a lock. */
  private final String[] recent = new String[SLOTS];

  /**
   * The URI in {@code buffer}: the string made for an earlier request of the same URI when it is
   * still kept (comparing the bytes costs less than a new string, which every request of a busy
   * path would otherwise make and the collector clean up), else a new one, then kept.
   */
  String of(byte[] buffer, int start, int length) {
    int slot = slotOf(buffer, start, length);
    String kept = recent[slot];
    if (kept != null && sameChars(kept, buffer, start, length)) {
      return kept;
    }
    String uri = new String(buffer, start, length, StandardCharsets.ISO_8859_1);
    recent[slot] = uri; // a string is safe to hand over without a lock
    return uri;
  }

  /** From the length and the last two bytes, which tell apart most paths of an application. */
  private static int slotOf(byte[] buffer, int start, int length) {
    int h = length;
    if (length > 0) {
      h = h * 31 + buffer[start + length - 1];
    }
    if (length > 1) {
      h = h * 31 + buffer[start + length - 2];
    }
    return (h ^ (h >>> 5)) & (SLOTS - 1);
  }

  private static boolean sameChars(String kept, byte[] buffer, int start, int length) {
    if (kept.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (kept.charAt(i) != (char) (buffer[start + i] & 0xff)) {
        return false;
      }
    }
    return true;
  }
}
