package io.tollgate.http;

import io.tollgate.limiters.ExactMath;
import io.tollgate.limiters.QuotaPolicy;

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

  /** Whole seconds, rounded up: a client that waits this long is never early. */
  public static long ceilSeconds(long nanos) {
    return nanos <= 0 ? 0 : ExactMath.ceilDiv(nanos, 1_000_000_000L);
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
