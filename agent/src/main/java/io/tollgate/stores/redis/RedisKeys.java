package io.tollgate.stores.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Redis key names: {@code tollgate:{RULE:DIGEST}}.
 *
 * <p>The whole bucket identity is the hash tag, so that each bucket's key lives in one Cluster slot
 * and different buckets spread over all shards. The client's part of the key (an IP, a header
 * value, an API key, a session cookie) is never stored as is: it is replaced by its SHA-256,
 * truncated to 128 bits and written in base64url (22 characters), so keys hold no raw secrets and
 * stay short whatever a client sends. The rule name is kept readable when it is short and plain
 * ({@code [A-Za-z0-9._-]}, at most 64 characters), and hashed the same way otherwise.
 *
 * <p>A truncated unsalted hash of a low-entropy value (a 6-digit code) can be reversed by trying
 * every value; it hides secrets from casual readers of Redis, not from a brute-force search.
 */
public final class RedisKeys {

  public static final String PREFIX = "tollgate:";

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("SHA-256 is not available", e);
            }
          });

  private RedisKeys() {}

  /** The key of one rule's bucket for one client key. */
  public static String bucketKey(String ruleName, String clientKey) {
    return PREFIX + "{" + ruleTag(ruleName) + ":" + digest(clientKey) + "}";
  }

  /**
   * The penalty box of one rule for one client key: in the same Cluster slot as the key's bucket
   * of a rule with one limit (the same hash tag), so a rule's keys for one client stay together.
   */
  public static String penaltyKey(String ruleName, String clientKey) {
    return bucketKey(ruleName, clientKey) + ":penalty";
  }

  /** The sorted set where the instances of one group announce themselves. */
  public static String instancesKey(String group) {
    return PREFIX + "instances:{" + ruleTag(group) + "}";
  }

  static String ruleTag(String ruleName) {
    return PLAIN.matcher(ruleName).matches() ? ruleName : "h" + digest(ruleName);
  }

  /** SHA-256 of the UTF-8 bytes, first 16 bytes, base64url without padding: 22 characters. */
  public static String digest(String value) {
    MessageDigest sha = SHA256.get();
    sha.reset();
    byte[] hash = sha.digest(value.getBytes(StandardCharsets.UTF_8));
    return BASE64URL.encodeToString(Arrays.copyOf(hash, 16));
  }
}
