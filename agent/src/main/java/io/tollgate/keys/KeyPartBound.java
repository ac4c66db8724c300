package io.tollgate.keys;

/**
 * Keeps every stored key part small, whatever a client sends: a part longer than
 * {@link #MAX_BYTES} bytes of UTF-8 is stored as {@link #HASH_MARK} followed by its
 * {@link KeyHash} (23 characters), as header and cookie keys always are. Without it, a
 * {@code param:username} key sent with a distinct 1 MB user name per request would keep a megabyte
 * per key: {@code max-keys} bounds the number of keys, not their size.
 *
 * <p>A short part that starts with {@link #HASH_MARK} is hashed too, so that no value a client can
 * send is ever stored as the hashed form of another: the stored form stays injective (up to
 * SHA-256 collisions), and two different user names never share a budget.
 */
public final class KeyPartBound {

  /** The most UTF-8 bytes a key part is stored with as it is; longer parts are hashed. */
  public static final int MAX_BYTES = 64;
  /** Starts every hashed part, and no part stored as it is. */
  public static final char HASH_MARK = '~';

  private KeyPartBound() {
  }

  /** {@code part} as stored: itself when short, else its mark and hash; null for null. */
  public static String bound(String part) {
    if (part == null) {
      return null;
    }
    if (fits(part) && (part.isEmpty() || part.charAt(0) != HASH_MARK)) {
      return part;
    }
    return HASH_MARK + KeyHash.hash(part);
  }

  /** Whether {@code part} takes at most {@link #MAX_BYTES} bytes in UTF-8; stops counting early. */
  static boolean fits(String part) {
    int n = part.length();
    if (n > MAX_BYTES) {
      return false; // every char takes at least one byte
    }
    if (n <= MAX_BYTES / 3) {
      return true; // no char takes more than three bytes (a surrogate pair four, for two chars)
    }
    int bytes = 0;
    for (int i = 0; i < n; i++) {
      char c = part.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(part.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes <= MAX_BYTES;
  }
}
