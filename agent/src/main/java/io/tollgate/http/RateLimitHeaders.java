package io.tollgate.http;

import io.tollgate.config.HeadersMode;
import io.tollgate.engine.RuleVerdicts;
import io.tollgate.limiters.ExactMath;
import io.tollgate.limiters.QuotaPolicy;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * The quota headers: the IETF draft's {@code RateLimit-Policy} and {@code RateLimit}
 * (draft-ietf-httpapi-ratelimit-headers, as RFC 9651 structured fields), the older
 * {@code X-RateLimit-*}, both, or none.
 *
 * <p>{@code RateLimit-Policy} lists every matching rule that shows its quota; {@code RateLimit}
 * reports the tightest of them (the fewest units left), or, on a refusal, the refusing rule.
 */
public final class RateLimitHeaders {

  private RateLimitHeaders() {}

  /** Adds the headers for these verdicts to {@code out} as name/value pairs. */
  public static void addTo(List<String[]> out, RuleVerdicts verdicts, HeadersMode mode) {
    if (mode == HeadersMode.NONE) {
      return;
    }
    StringBuilder policies = new StringBuilder();
    RuleVerdicts.Entry tightest = null;
    for (RuleVerdicts.Entry entry : verdicts.entries()) {
      if (!entry.rule.showsQuotaHeaders() || entry.verdict.backendUnavailable) {
        continue;
      }
      QuotaPolicy policy = entry.rule.policy();
      if (policies.length() > 0) {
        policies.append(", ");
      }
      appendString(policies, entry.rule.name());
      policies.append(";q=").append(policy.quota()).append(";w=").append(policy.windowSeconds());
      if (tightest == null || isTighter(entry.verdict, tightest.verdict)) {
        tightest = entry;
      }
    }
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    if (refusedBy != null
        && refusedBy.rule.showsQuotaHeaders()
        && !refusedBy.verdict.backendUnavailable) {
      tightest = refusedBy;
    }
    if (tightest == null) {
      return;
    }
    long remaining = tightest.verdict.remaining;
    long resetSeconds = ceilSeconds(tightest.verdict.resetNanos);
    if (mode == HeadersMode.DRAFT || mode == HeadersMode.BOTH) {
      StringBuilder current = new StringBuilder();
      appendString(current, tightest.rule.name());
      current.append(";r=").append(remaining).append(";t=").append(resetSeconds);
      out.add(new String[] {"RateLimit-Policy", policies.toString()});
      out.add(new String[] {"RateLimit", current.toString()});
    }
    if (mode == HeadersMode.LEGACY || mode == HeadersMode.BOTH) {
      out.add(new String[] {"X-RateLimit-Limit", Long.toString(tightest.rule.policy().quota())});
      out.add(new String[] {"X-RateLimit-Remaining", Long.toString(remaining)});
      out.add(new String[] {"X-RateLimit-Reset", Long.toString(resetSeconds)});
    }
  }

  private static boolean isTighter(Verdict candidate, Verdict current) {
    return candidate.remaining < current.remaining
        || (candidate.remaining == current.remaining && candidate.resetNanos > current.resetNanos);
  }

  /** Whole seconds, rounded up: a client that waits this long is never early. */
  public static long ceilSeconds(long nanos) {
    return nanos <= 0 ? 0 : ExactMath.ceilDiv(nanos, 1_000_000_000L);
  }

  /** An RFC 9651 sf-string: quoted, with backslash and quote escaped. */
  static void appendString(StringBuilder out, String value) {
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
