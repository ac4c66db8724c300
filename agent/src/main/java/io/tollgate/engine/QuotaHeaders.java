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
    write(exchange, null, verdicts, mode);
  }

  /**
   * Puts the headers for these verdicts into {@code out}, names and values alternating, for a
   * refusal: returns how many entries (twice the headers); {@code out} holds {@link #MAX_ENTRIES}.
   */
  static int putInto(String[] out, RuleVerdicts verdicts, HeadersMode mode) {
    return write(null, out, verdicts, mode);
  }

  /** The most entries {@link #putInto} writes: five headers, each a name and a value. */
  static final int MAX_ENTRIES = 10;

  /**
   * Adds the headers for these verdicts to {@code out}. Per request this makes only the strings
   * that must be new: the {@code RateLimit} value, and {@code RateLimit-Policy} only when several
   * rules show theirs; each rule's own policy item is made once, with the rule.
   */
  public static void addTo(Sink out, RuleVerdicts verdicts, HeadersMode mode) {
    // through an array, so that the request path's write() names no Sink: C2 does not inline a
    // method a class of whose signature is not loaded, and the agent itself never uses a Sink
    String[] pairs = new String[MAX_ENTRIES];
    int n = write(null, pairs, verdicts, mode);
    for (int i = 0; i < n; i += 2) {
      out.header(pairs[i], pairs[i + 1]);
    }
  }

  private static final HeaderText RATE_LIMIT_POLICY = HeaderText.of("RateLimit-Policy");
  private static final HeaderText RATE_LIMIT = HeaderText.of("RateLimit");
  private static final HeaderText X_RATE_LIMIT_LIMIT = HeaderText.of("X-RateLimit-Limit");
  private static final HeaderText X_RATE_LIMIT_REMAINING = HeaderText.of("X-RateLimit-Remaining");
  private static final HeaderText X_RATE_LIMIT_RESET = HeaderText.of("X-RateLimit-Reset");

  /**
   * To {@code exchange}'s response, or when it is null into {@code array}; returns how many entries were put into {@code array}. A value that repeats
   * from response to response (a rule's policy, a budget's recent {@code RateLimit} values) goes
   * to the response with its bytes, kept ({@link HeaderText}), so that a module that writes bytes
   * copies them as they are.
   */
  private static int write(HttpExchange exchange, String[] array,
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
      if (!shows(entry)) {
        continue;
      }
      boolean ownItem = !entry.rule.showsPartitionKey();
      String item = ownItem ? entry.rule.quotaPolicyItem() : partitionedItem(entry);
      if (policies == null) {
        policies = item;
        keptPolicy = ownItem ? entry.rule.quotaPolicyHeader() : null;
      } else {
        morePolicies = appended(morePolicies, policies, item);
      }
      tightest = tighterOf(entry, tightest);
    }
    tightest = refusalOr(verdicts, tightest);
    if (tightest == null) {
      return 0;
    }
    int n = 0;
    if (mode != HeadersMode.LEGACY) {
      // the budget's recent values are kept: a response of the same units and seconds makes none
      Verdict verdict = tightest.verdict;
      HeaderText value = tightest.rule.rateLimitHeader(verdict.remaining, seconds(mode, verdict));
      if (exchange != null && keptPolicy != null && morePolicies == null
          && !tightest.rule.showsPartitionKey()) {
        // the usual pair, both kept with their bytes: set together (one lookup of the response)
        exchange.setResponseHeaders(RATE_LIMIT_POLICY, keptPolicy, RATE_LIMIT, value);
      } else {
        n = separately(exchange, array, policies, keptPolicy, morePolicies, tightest, value);
      }
    }
    if (mode == HeadersMode.LEGACY || mode == HeadersMode.BOTH) {
      n = legacyHeaders(exchange, array, n, tightest);
    }
    return n;
  }

  // What follows write() is kept out of it so that write stays under the JIT's limit for inlining
  // a hot method (FreqInlineSize, 325 bytes of bytecode): benchmarks/jit-path.sh, issue 29 item 2.

  /** Whether the entry's rule shows its quota: a shadow rule only observes (telling clients its
   * quota would change what they do), and a store's fallback verdict has none to show. */
  private static boolean shows(RuleVerdicts.Entry entry) {
    return entry.rule.showsQuotaHeaders() && !entry.verdict.fallback && !entry.rule.isShadow();
  }

  /** {@code entry} when it is tighter than {@code tightest} (or the first), else {@code tightest}. */
  private static RuleVerdicts.Entry tighterOf(RuleVerdicts.Entry entry, RuleVerdicts.Entry tightest) {
    return tightest == null || isTighter(entry.verdict, tightest.verdict) ? entry : tightest;
  }

  /** The two headers one at a time: into an array, several rules' policies, or a partition key. */
  private static int separately(HttpExchange exchange, String[] array, String policies,
      HeaderText keptPolicy, StringBuilder morePolicies, RuleVerdicts.Entry tightest,
      HeaderText value) {
    int n = policyHeader(exchange, array, 0, policies, keptPolicy, morePolicies);
    return rateLimitHeader(exchange, array, n, tightest, value);
  }

  /** A policy item with the key's partition ({@code partition-key: true}). */
  private static String partitionedItem(RuleVerdicts.Entry entry) {
    return entry.rule.quotaPolicyItem()
        + RateLimitHeaders.partitionKeyParameter(entry.rule.name(), entry.key);
  }

  /** The policies of several rules: {@code item} after those so far. */
  private static StringBuilder appended(StringBuilder morePolicies, String first, String item) {
    StringBuilder all = morePolicies == null ? new StringBuilder(first) : morePolicies;
    return all.append(", ").append(item);
  }

  /** The refusing rule's verdict when it shows quota headers, else {@code tightest}. */
  private static RuleVerdicts.Entry refusalOr(RuleVerdicts verdicts, RuleVerdicts.Entry tightest) {
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    return refusedBy != null && refusedBy.rule.showsQuotaHeaders() && !refusedBy.verdict.fallback
        ? refusedBy
        : tightest;
  }

  /** The {@code RateLimit} value's seconds: to the reset (draft 8), the next unit, or the retry. */
  private static long seconds(HeadersMode mode, Verdict verdict) {
    if (mode == HeadersMode.DRAFT_8) {
      return RateLimitHeaders.ceilSeconds(verdict.resetNanos);
    }
    return verdict.allowed
        ? RateLimitHeaders.ceilSeconds(verdict.nextUnitNanos)
        : RefusalResponse.retryAfterSeconds(verdict.retryAfterNanos);
  }

  /** The three {@code X-RateLimit-*} headers of {@code legacy} and {@code both}. */
  private static int legacyHeaders(HttpExchange exchange, String[] array, int at,
      RuleVerdicts.Entry tightest) {
    Verdict verdict = tightest.verdict;
    int n = header(exchange, array, at, X_RATE_LIMIT_LIMIT,
        Long.toString(tightest.rule.policy().quota()), null);
    n = header(exchange, array, n, X_RATE_LIMIT_REMAINING,
        Long.toString(verdict.remaining), null);
    return header(exchange, array, n, X_RATE_LIMIT_RESET,
        Long.toString(RateLimitHeaders.ceilSeconds(verdict.resetNanos)), null);
  }

  /** {@code RateLimit-Policy}: the one rule's item as it keeps it, or the items of several. */
  private static int policyHeader(HttpExchange exchange, String[] array, int at,
      String policies, HeaderText keptPolicy, StringBuilder morePolicies) {
    return morePolicies != null
        ? header(exchange, array, at, RATE_LIMIT_POLICY, morePolicies.toString(), null)
        : header(exchange, array, at, RATE_LIMIT_POLICY, policies, keptPolicy);
  }

  /** {@code RateLimit}: the tightest budget's kept value, with its partition key if it shows one. */
  private static int rateLimitHeader(HttpExchange exchange, String[] array, int at,
      RuleVerdicts.Entry tightest, HeaderText value) {
    if (tightest.rule.showsPartitionKey()) {
      String item = value.text()
          + RateLimitHeaders.partitionKeyParameter(tightest.rule.name(), tightest.key);
      return header(exchange, array, at, RATE_LIMIT, item, null);
    }
    return header(exchange, array, at, RATE_LIMIT, value.text(), value);
  }

  /** One header: {@code kept} is {@code value} with its bytes when the caller keeps one, or null. */
  private static int header(HttpExchange exchange, String[] array, int at,
      HeaderText name, String value, HeaderText kept) {
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
