package io.tollgate.http;

import io.tollgate.limiters.QuotaPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * How the quota headers are written: the items of the IETF draft's {@code RateLimit-Policy} and
 * {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers, as RFC 9651 structured fields) and the
 * seconds they give. Which rules they report is the engine's choice ({@code QuotaHeaders}).
 */
public final class RateLimitHeaders {

  private RateLimitHeaders() {}

  /** A rule's item of {@code RateLimit-Policy}: {@code "name";q=100;w=60}. */
  public static String policyItem(String ruleName, QuotaPolicy policy) {
    StringBuilder item = new StringBuilder();
    appendString(item, ruleName);
    return item.append(";q=").append(policy.quota()).append(";w=").append(policy.windowSeconds())
        .toString();
  }

  /** The start of a rule's {@code RateLimit} value, before the units left: {@code "name";r=}. */
  public static String rateLimitPrefix(String ruleName) {
    StringBuilder prefix = new StringBuilder();
    appendString(prefix, ruleName);
    return prefix.append(";r=").toString();
  }

  /**
   * The draft's {@code pk} parameter for a rule's key, {@code ;pk=:...:}: the first 12 bytes of
   * SHA-256 over the rule's name and the key. Requests with the same {@code pk} share a quota; the
   * key itself (an address, an API key, a user) is not shown, as the draft asks. The same on every
   * instance and after a restart, so that a client can tell its partitions apart across them.
   */
  public static String partitionKeyParameter(String ruleName, String key) {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JRE has SHA-256", e);
    }
    sha256.update(ruleName.getBytes(StandardCharsets.UTF_8));
    sha256.update((byte) 0);
    sha256.update(String.valueOf(key).getBytes(StandardCharsets.UTF_8));
    byte[] digest = Arrays.copyOf(sha256.digest(), 12);
    return ";pk=:" + Base64.getEncoder().encodeToString(digest) + ":";
  }

  /** Whole seconds, rounded up: a client that waits this long is never early. */
  public static long ceilSeconds(long nanos) {
    // for nanos > 0, (nanos - 1) / 10^9 + 1 is the quotient rounded up: one division by a
    // constant, which the JIT makes a multiplication, where ceilDiv's floorDiv adds sign checks
    return nanos <= 0 ? 0 : (nanos - 1) / 1_000_000_000L + 1;
  }

  /** An RFC 9651 sf-string: quoted, with backslash and quote escaped. */
  public static void appendString(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    out.append('"');
  }
}
