package io.tollgate.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * One-way form of a secret used as a rate-limit key (an API key, a bearer token, a session cookie):
 * the secret itself is never stored, logged or sent to a shared store, only this hash.
 *
 * <p>{@code hash(s)} = base64url, without padding, of the first 16 bytes of SHA-256 over the UTF-8
 * bytes of {@code s}: always 22 characters from {@code [A-Za-z0-9_-]}. 128 bits make accidental
 * collisions irrelevant at any realistic key count. (Unpaired surrogates are encoded as {@code ?} by
 * UTF-8, as everywhere in Java; header values are ISO-8859-1 in practice.)
 *
 * <p>Thread-safe: each thread uses its own {@link MessageDigest}. Short ASCII secrets (the common
 * case) are encoded into a per-thread buffer without allocating.
 */
public final class KeyHash {

  /** Length of every hash string. */
  public static final int LENGTH = 22;
  private static final int FAST_PATH_CHARS = 256;

  private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

  private static final class State {
    final MessageDigest sha256;
    final byte[] buf = new byte[FAST_PATH_CHARS];

    State() {
      try {
        sha256 = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is required of every Java platform", e);
      }
    }
  }

  private KeyHash() {
  }

  /**
   * The 22-character hash of {@code secret}.
   *
   * @throws NullPointerException if {@code secret} is null (absent values are the caller's decision)
   */
  public static String hash(String secret) {
    if (secret == null) {
      throw new NullPointerException("secret");
    }
    State st = STATE.get();
    MessageDigest md = st.sha256;
    md.reset();
    int n = secret.length();
    boolean ascii = n <= FAST_PATH_CHARS;
    if (ascii) {
      byte[] buf = st.buf;
      for (int i = 0; i < n; i++) {
        char c = secret.charAt(i);
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        buf[i] = (byte) c;
      }
      if (ascii) {
        md.update(buf, 0, n);
      }
    }
    if (!ascii) {
      md.update(secret.getBytes(StandardCharsets.UTF_8));
    }
    byte[] digest = md.digest();
    byte[] first16 = new byte[16];
    System.arraycopy(digest, 0, first16, 0, 16);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(first16);
  }
}
