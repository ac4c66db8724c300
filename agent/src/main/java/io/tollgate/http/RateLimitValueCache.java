package io.tollgate.http;

import java.nio.charset.StandardCharsets;

/**
 * One budget's {@code RateLimit} values ({@code "name";r=41;t=30}), kept for the pairs of units
 * left and seconds asked lately, so that the responses of a busy rule, whose clients mostly see
 * the same few pairs, are not each given a new string (the value was ~170 bytes of the ~520 a
 * decided request allocated).
 *
 * <p>Direct-mapped and without a lock: a slot holds one immutable pair and its value, a miss
 * builds the value and puts it in its slot, and two requests that race for a slot at most build
 * the same value twice. A hit only reads. A miss builds the value in one exactly sized array,
 * with no builder in between.
 */
public final class RateLimitValueCache {

  /** A power of two: the slots a budget keeps. */
  static final int SLOTS = 16;

  /** One pair and its value; immutable, so that a slot is safely read by any thread. */
  private static final class Slot {
    final long remaining;
    final long seconds;
    /** The value as text and as the bytes a module that writes bytes copies ({@link HeaderText}). */
    final HeaderText value;

    Slot(long remaining, long seconds, HeaderText value) {
      this.remaining = remaining;
      this.seconds = seconds;
      this.value = value;
    }
  }

  /** {@code "name";r=}, in ISO-8859-1: {@link RateLimitHeaders#appendString} leaves only ASCII. */
  private final byte[] prefix;
  private final Slot[] slots = new Slot[SLOTS];

  /** For a budget whose values start with {@code prefix} ({@link RateLimitHeaders#rateLimitPrefix}). */
  public RateLimitValueCache(String prefix) {
    this.prefix = prefix.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** {@code prefix}, {@code remaining}, {@code ;t=} and {@code seconds}. */
  public String value(long remaining, long seconds) {
    return header(remaining, seconds).text();
  }

  /**
   * As {@link #value}, with its bytes: what the quota headers set on a response, so that a module
   * that writes headers as bytes copies the kept ones as they are.
   */
  public HeaderText header(long remaining, long seconds) {
    if (remaining < 0 || seconds < 0) { // never from a verdict; written as they are, not kept
      return HeaderText.of(
          new String(prefix, StandardCharsets.ISO_8859_1) + remaining + ";t=" + seconds);
    }
    int index = (int) (remaining * 31 + seconds) & (SLOTS - 1);
    Slot slot = slots[index];
    if (slot != null && slot.remaining == remaining && slot.seconds == seconds) {
      return slot.value;
    }
    HeaderText value = HeaderText.ofBytes(build(remaining, seconds));
    slots[index] = new Slot(remaining, seconds, value);
    return value;
  }

  private byte[] build(long remaining, long seconds) {
    int remainingDigits = digits(remaining);
    int secondsDigits = digits(seconds);
    byte[] out = new byte[prefix.length + remainingDigits + 3 + secondsDigits];
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    int end = prefix.length + remainingDigits;
    writeDigits(remaining, out, end);
    out[end] = ';';
    out[end + 1] = 't';
    out[end + 2] = '=';
    writeDigits(seconds, out, out.length);
    return out;
  }

  /** The decimal digits of {@code n}, not negative. */
  static int digits(long n) {
    int digits = 1;
    while (n >= 10) {
      n /= 10;
      digits++;
    }
    return digits;
  }

  /** Writes {@code n}'s digits so that the last is at {@code end - 1}. */
  private static void writeDigits(long n, byte[] out, int end) {
    int i = end;
    do {
      out[--i] = (byte) ('0' + (n % 10));
      n /= 10;
    } while (n > 0);
  }
}
