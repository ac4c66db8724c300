package io.tollgate.engine;

import io.tollgate.config.HeadersMode;
import io.tollgate.http.HeaderText;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.RateLimitHeaders;
import io.tollgate.http.RefusalResponse;
import io.tollgate.limiters.Verdict;
import java.util.List;

/**
 * The quota headers of a request's verdicts: the IETF draft's {@code RateLimit-Policy} and
 * {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers, as RFC 9651 structured fields), the
 * older {@code X-RateLimit-*}, both, or none.
 *
 * <p>{@code RateLimit-Policy} lists every matching rule that shows its quota; {@code RateLimit}
 * reports the tightest of them (the fewest units left), or, on a refusal, the refusing rule.
 *
 * <p>Its {@code t} depends on the draft: the newest ({@code headers: draft}, {@code both}) says
 * when more quota is available ({@link Verdict#nextUnitNanos}), and on a refusal exactly what
 * {@code Retry-After} says, since the draft wants {@code Retry-After} no earlier than {@code t};
 * draft-8 ({@code headers: draft-8}) and the legacy {@code X-RateLimit-Reset} say when the quota is
 * whole again ({@link Verdict#resetNanos}). A rule with {@code partition-key: true} adds the
 * draft's {@code pk} to both items, a digest of the key.
 */
public final class QuotaHeaders {

  private QuotaHeaders() {}

  /** Where the headers go: the response itself, or a list kept for a refusal. */
  public interface Sink {
    void header(String name, String value);
  }

  /** Adds the headers for these verdicts to {@code out} as name/value pairs. */
  public static void addTo(List<String[]> out, RuleVerdicts verdicts, HeadersMode mode) {
    addTo((name, value) -> out.add(new String[] {name, value}), verdicts, mode);
  }

  /**
   * Sets the headers for these verdicts on {@code exchange}'s response: as {@link #addTo(Sink,
   * RuleVerdicts, HeadersMode)}, without a sink made for each response.
   */
  public static void setOn(HttpExchange exchange, RuleVerdicts verdicts, HeadersMode mode) {
    write(null, exchange, null, verdicts, mode);
  }

  /**
   * Puts the headers for these verdicts into {@code out}, names and values alternating, for a
   * refusal: returns how many entries (twice the headers); {@code out} holds {@link #MAX_ENTRIES}.
   */
  static int putInto(String[] out, RuleVerdicts verdicts, HeadersMode mode) {
    return write(null, null, out, verdicts, mode);
  }

  /** The most entries {@link #putInto} writes: five headers, each a name and a value. */
  static final int MAX_ENTRIES = 10;

  /**
   * Adds the headers for these verdicts to {@code out}. Per request this makes only the strings
   * that must be new: the {@code RateLimit} value, and {@code RateLimit-Policy} only when several
   * rules show theirs; each rule's own policy item is made once, with the rule.
   */
  public static void addTo(Sink out, RuleVerdicts verdicts, HeadersMode mode) {
    write(out, null, null, verdicts, mode);
  }

  private static final HeaderText RATE_LIMIT_POLICY = HeaderText.of("RateLimit-Policy");
  private static final HeaderText RATE_LIMIT = HeaderText.of("RateLimit");
  private static final HeaderText X_RATE_LIMIT_LIMIT = HeaderText.of("X-RateLimit-Limit");
  private static final HeaderText X_RATE_LIMIT_REMAINING = HeaderText.of("X-RateLimit-Remaining");
  private static final HeaderText X_RATE_LIMIT_RESET = HeaderText.of("X-RateLimit-Reset");

  /**
   * To {@code sink}, or when it is null to {@code exchange}'s response, or when that is null too
   * into {@code array}; returns how many entries were put into {@code array}. A value that repeats
   * from response to response (a rule's policy, a budget's recent {@code RateLimit} values) goes
   * to the response with its bytes, kept ({@link HeaderText}), so that a module that writes bytes
   * copies them as they are.
   */
  private static int write(Sink sink, HttpExchange exchange, String[] array,
      RuleVerdicts verdicts, HeadersMode mode) {
    if (mode == HeadersMode.NONE) {
      return 0;
    }
    String policies = null;
    HeaderText keptPolicy = null; // the only item's, as the rule keeps it; null when made here
    StringBuilder morePolicies = null;
    RuleVerdicts.Entry tightest = null;
    for (int i = 0, n = verdicts.size(); i < n; i++) {
      RuleVerdicts.Entry entry = verdicts.entry(i);
      // a shadow rule only observes: telling clients its quota would change what they do
      if (!entry.rule.showsQuotaHeaders() || entry.verdict.fallback || entry.rule.isShadow()) {
        continue;
      }
      String item = entry.rule.quotaPolicyItem();
      boolean ownItem = !entry.rule.showsPartitionKey();
      if (!ownItem) {
        item += RateLimitHeaders.partitionKeyParameter(entry.rule.name(), entry.key);
      }
      if (policies == null) {
        policies = item;
        keptPolicy = ownItem ? entry.rule.quotaPolicyHeader() : null;
      } else {
        if (morePolicies == null) {
          morePolicies = new StringBuilder(policies);
        }
        morePolicies.append(", ").append(item);
      }
      if (tightest == null || isTighter(entry.verdict, tightest.verdict)) {
        tightest = entry;
      }
    }
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    if (refusedBy != null
        && refusedBy.rule.showsQuotaHeaders()
        && !refusedBy.verdict.fallback) {
      tightest = refusedBy;
    }
    if (tightest == null) {
      return 0;
    }
    int n = 0;
    Verdict verdict = tightest.verdict;
    long remaining = verdict.remaining;
    if (mode != HeadersMode.LEGACY) {
      long t;
      if (mode == HeadersMode.DRAFT_8) {
        t = RateLimitHeaders.ceilSeconds(verdict.resetNanos);
      } else if (verdict.allowed) {
        t = RateLimitHeaders.ceilSeconds(verdict.nextUnitNanos);
      } else {
        t = RefusalResponse.retryAfterSeconds(verdict.retryAfterNanos);
      }
      // the budget's recent values are kept: a response of the same units and seconds makes none
      HeaderText value = tightest.rule.rateLimitHeader(remaining, t);
      if (exchange != null && sink == null && keptPolicy != null && morePolicies == null
          && !tightest.rule.showsPartitionKey()) {
        // the usual pair, both kept with their bytes: set together (one lookup of the response)
        exchange.setResponseHeaders(RATE_LIMIT_POLICY, keptPolicy, RATE_LIMIT, value);
      } else {
        n = policyHeader(sink, exchange, array, n, policies, keptPolicy, morePolicies);
        n = rateLimitHeader(sink, exchange, array, n, tightest, value);
      }
    }
    if (mode == HeadersMode.LEGACY || mode == HeadersMode.BOTH) {
      n = header(sink, exchange, array, n, X_RATE_LIMIT_LIMIT,
          Long.toString(tightest.rule.policy().quota()), null);
      n = header(sink, exchange, array, n, X_RATE_LIMIT_REMAINING, Long.toString(remaining), null);
      n = header(sink, exchange, array, n, X_RATE_LIMIT_RESET,
          Long.toString(RateLimitHeaders.ceilSeconds(verdict.resetNanos)), null);
    }
    return n;
  }

  /** {@code RateLimit-Policy}: the one rule's item as it keeps it, or the items of several. */
  private static int policyHeader(Sink sink, HttpExchange exchange, String[] array, int at,
      String policies, HeaderText keptPolicy, StringBuilder morePolicies) {
    return morePolicies != null
        ? header(sink, exchange, array, at, RATE_LIMIT_POLICY, morePolicies.toString(), null)
        : header(sink, exchange, array, at, RATE_LIMIT_POLICY, policies, keptPolicy);
  }

  /** {@code RateLimit}: the tightest budget's kept value, with its partition key if it shows one. */
  private static int rateLimitHeader(Sink sink, HttpExchange exchange, String[] array, int at,
      RuleVerdicts.Entry tightest, HeaderText value) {
    if (tightest.rule.showsPartitionKey()) {
      String item = value.text()
          + RateLimitHeaders.partitionKeyParameter(tightest.rule.name(), tightest.key);
      return header(sink, exchange, array, at, RATE_LIMIT, item, null);
    }
    return header(sink, exchange, array, at, RATE_LIMIT, value.text(), value);
  }

  /** One header: {@code kept} is {@code value} with its bytes when the caller keeps one, or null. */
  private static int header(Sink sink, HttpExchange exchange, String[] array, int at,
      HeaderText name, String value, HeaderText kept) {
    if (sink != null) {
      sink.header(name.text(), value);
      return at;
    }
    if (exchange != null) {
      if (kept != null) {
        exchange.setResponseHeader(name, kept);
      } else {
        exchange.setResponseHeader(name.text(), value);
      }
      return at;
    }
    array[at] = name.text();
    array[at + 1] = value;
    return at + 2;
  }

  private static boolean isTighter(Verdict candidate, Verdict current) {
    return candidate.remaining < current.remaining
        || (candidate.remaining == current.remaining && candidate.resetNanos > current.resetNanos);
  }

}
