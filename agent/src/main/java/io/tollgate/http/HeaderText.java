package io.tollgate.http;

import java.nio.charset.StandardCharsets;

/**
 * A response header's name or value as its text and, when every character is printable ASCII (as
 * every quota header's and refusal header's are, but for a rule name with others), as the bytes
 * it goes on the wire as.
 *
 * <p>Why: a module that puts headers into its container's response as bytes (Tomcat's, {@code
 * TomcatResponseHeaders}) looked at each character of each name and value on every response, to
 * check it and narrow it to a byte: a fifth of an allowed request's engine work, by the profile
 * of {@code RequestPathBenchmark}. The texts that repeat (the header names, a rule's policy, a
 * budget's recent {@code RateLimit} values, a refusal's headers) are made into a {@code
 * HeaderText} once and kept, so that a response copies their bytes as they are.
 *
 * <p>Immutable: safe to keep in caches read by any thread without a lock.
 */
public final class HeaderText {

  private final String text;
  /** The text's bytes, one per character, when all are printable ASCII; else null. */
  private final byte[] ascii;

  private HeaderText(String text, byte[] ascii) {
    this.text = text;
    this.ascii = ascii;
  }

  /** {@code text}, with its bytes when it is printable ASCII. */
  public static HeaderText of(String text) {
    return new HeaderText(text, asciiOf(text));
  }

  /**
   * {@code bytes} (kept, not copied: the caller gives them up) and the text they spell in
   * ISO-8859-1, for a value built as bytes.
   */
  static HeaderText ofBytes(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    return new HeaderText(text, isPrintableAscii(bytes) ? bytes : null);
  }

  public String text() {
    return text;
  }

  /**
   * The bytes of the text, when every character is printable ASCII (0x20 to 0x7e), else null:
   * shared, never to be written to.
   */
  public byte[] printableAscii() {
    return ascii;
  }

  @Override
  public String toString() {
    return text;
  }

  private static byte[] asciiOf(String text) {
    int length = text.length();
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return null;
      }
      bytes[i] = (byte) c;
    }
    return bytes;
  }

  private static boolean isPrintableAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0x20 || b > 0x7e) {
        return false;
      }
    }
    return true;
  }
}
