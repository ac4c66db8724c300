package io.tollgate.engine;

import io.tollgate.diagnostics.EarlyRetryLog;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.rules.Rule;
import java.util.function.UnaryOperator;

/**
 * Retry storms: on each refusal, whether the refused keys came back before the {@code
 * Retry-After} they were last given, counted per rule ({@code tollgate_early_retries_total},
 * JMX {@code EarlyRetries}, the top keys) and logged once a minute per key. Only refusals come
 * here: an allowed request pays nothing for it (see {@link EarlyRetryDetector}).
 */
final class EarlyRetries {

  /** The engine's: the detector and the log read the same clock. */
  private static final EarlyRetries SHARED =
      new EarlyRetries(new EarlyRetryDetector(System::nanoTime), new EarlyRetryLog(System::nanoTime));
  /** Failures here are logged at most once a minute. */
  private static final RateLimitedLog FAILURES = new RateLimitedLog(60_000);

  private final EarlyRetryDetector detector;
  private final EarlyRetryLog log;

  EarlyRetries(EarlyRetryDetector detector, EarlyRetryLog log) {
    this.detector = detector;
    this.log = log;
  }

  /**
   * The request of {@code verdicts} was refused, its client told to wait {@code toldSeconds}. The
   * refusal is written already: a failure here is logged, and changes nothing for the request.
   */
  static void refused(RuleVerdicts verdicts, long toldSeconds) {
    refused(verdicts, toldSeconds, System.nanoTime());
  }

  /** As above, at {@code nowNanos}, the caller's {@link System#nanoTime()}, which this reads too. */
  static void refused(RuleVerdicts verdicts, long toldSeconds, long nowNanos) {
    try {
      SHARED.check(verdicts, toldSeconds, nowNanos);
    } catch (RuntimeException e) {
      FAILURES.error("early-retries", () -> "counting early retries failed (the refusal stands): " + e);
    }
  }

  /**
   * For each enforcing rule that refused the request (once per rule, however many of its limits
   * refused): counts and logs an early retry of its key, and remembers the new wait. The wait is
   * remembered per rule of the file, and an early retry is counted on the limit that refused it
   * (the one with the longest wait, named as in {@code Tollgate-Rule} and the refusal log).
   * Shadow rules told the client nothing.
   */
  void check(RuleVerdicts verdicts, long toldSeconds) {
    check(verdicts, toldSeconds, Long.MIN_VALUE);
  }

  /** As above, at {@code nowNanos} on the detector's clock; {@code Long.MIN_VALUE}: read it. */
  void check(RuleVerdicts verdicts, long toldSeconds, long nowNanos) {
    // by index: a refusal, the flood's common case, makes no list view
    RuleVerdicts entries = verdicts;
    for (int i = 0, n = entries.size(); i < n; i++) {
      RuleVerdicts.Entry entry = entries.entry(i);
      if (entry.verdict.allowed || entry.rule.isShadow() || refusedEarlierInRule(entries, i)) {
        continue;
      }
      // a per-client refusal is the client's ("key\nclient"), not its shared key's, which every
      // client has
      boolean perClient = RuleVerdicts.clientOverShare(entry) != null;
      String key = perClient ? entry.shareClient : entry.key;
      // filled in the request context's own (nothing made per early retry)
      EarlyRetryDetector.EarlyRetry early = verdicts.earlyRetry();
      boolean isEarly = nowNanos == Long.MIN_VALUE
          ? detector.refused(entry.rule.owner().name(), key, toldSeconds, early)
          : detector.refused(entry.rule.owner().name(), key, toldSeconds, nowNanos, early);
      if (isEarly) {
        Rule refusing = longestRefusalInRule(entries, i).rule;
        String budget = refusing.name();
        TollgateMetrics.earlyRetry(refusing.metrics(), key,
            perClient ? EarlyRetries::shownPerClient : KeyDisplay::unquoted,
            early.toldSeconds, early.afterNanos);
        UnaryOperator<String> quoted = perClient ? EarlyRetries::quotedPerClient : KeyDisplay::of;
        if (nowNanos == Long.MIN_VALUE) {
          log.earlyRetry(budget, early.line, key, quoted, early.toldSeconds, early.afterNanos);
        } else {
          log.earlyRetry(
              budget, early.line, key, quoted, early.toldSeconds, early.afterNanos, nowNanos);
        }
      }
    }
  }

  /**
   * A per-client refusal's key ({@code "key\nclient"}) as the metrics list it, the refusal log's
   * way without the quotes: {@code * (client 198.51.100.1)}.
   */
  static String shownPerClient(String key) {
    int client = key.indexOf('\n');
    return KeyDisplay.unquoted(key.substring(0, client))
        + " (client " + KeyDisplay.unquoted(key.substring(client + 1)) + ")";
  }

  /** A per-client refusal's key as the refusal log shows it: {@code '*' (client '198.51.100.1')}. */
  static String quotedPerClient(String key) {
    int client = key.indexOf('\n');
    return KeyDisplay.of(key.substring(0, client))
        + " (client " + KeyDisplay.of(key.substring(client + 1)) + ")";
  }

  /** Whether an earlier limit of the same rule refused the same key in this request. */
  private static boolean refusedEarlierInRule(RuleVerdicts entries, int index) {
    RuleVerdicts.Entry entry = entries.entry(index);
    for (int j = 0; j < index; j++) {
      if (sameRuleRefused(entries.entry(j), entry)) {
        return true;
      }
    }
    return false;
  }

  /** The limit of the rule of {@code entries[first]} that refused with the longest wait. */
  private static RuleVerdicts.Entry longestRefusalInRule(RuleVerdicts entries, int first) {
    RuleVerdicts.Entry longest = entries.entry(first);
    for (int j = first + 1, n = entries.size(); j < n; j++) {
      RuleVerdicts.Entry other = entries.entry(j);
      if (sameRuleRefused(other, longest)
          && other.verdict.retryAfterNanos > longest.verdict.retryAfterNanos) {
        longest = other;
      }
    }
    return longest;
  }

  private static boolean sameRuleRefused(RuleVerdicts.Entry other, RuleVerdicts.Entry entry) {
    return !other.verdict.allowed && other.rule.owner() == entry.rule.owner()
        && other.key.equals(entry.key);
  }
}
