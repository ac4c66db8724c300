package io.tollgate.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/** What one rule would have done to the replayed log: the figures both reports show. */
final class RuleReport {

  /** Most early retries first; then most refused; then by key. */
  static final Comparator<KeyTally> MOST_EARLY_RETRIES =
      Comparator.comparingLong((KeyTally k) -> k.earlyRetries)
          .reversed()
          .thenComparing(Comparator.comparingLong((KeyTally k) -> k.refused).reversed())
          .thenComparing(k -> k.key);

  /** Most refused first; then the earliest refused; then by key, so that the order is stable. */
  static final Comparator<KeyTally> MOST_REFUSED =
      Comparator.comparingLong((KeyTally k) -> k.refused)
          .reversed()
          .thenComparingLong(k -> k.firstRefusalMillis)
          .thenComparing(k -> k.key);

  final ReplayedRule rule;
  final long matched;
  final long refused;
  final long unreplayable;
  final long uncounted;
  /** Exact when {@link #keysExact}, else the tracked keys plus an estimate of the others. */
  final long distinctKeys;
  final boolean keysExact;
  final int trackedKeys;
  final long keysRefused;
  final List<KeyTally> topRefused;
  /** Requests refused before the Retry-After their key was last given (of the keys tracked). */
  final long earlyRetries;
  /** The keys that came back early most often, most first. */
  final List<KeyTally> topEarlyRetries;
  final MinuteTimeline timeline;
  final KeyHistogram histogram;
  final List<LimitSuggestion> suggestions;

  RuleReport(RuleTally tally, int top) {
    this.rule = tally.rule;
    this.matched = tally.matched;
    this.refused = tally.refused;
    this.unreplayable = tally.unreplayable;
    this.uncounted = tally.uncounted;
    this.trackedKeys = tally.keys.size();
    this.keysExact = tally.exact();
    this.distinctKeys =
        trackedKeys + (tally.untrackedKeys == null ? 0 : tally.untrackedKeys.estimate());
    this.timeline = tally.timeline;
    long refusedKeys = 0;
    KeyHistogram keyCounts = new KeyHistogram();
    PriorityQueue<KeyTally> earliest =
        new PriorityQueue<>(Math.max(1, top), MOST_EARLY_RETRIES.reversed());
    PriorityQueue<KeyTally> worst = new PriorityQueue<>(Math.max(1, top), MOST_REFUSED.reversed());
    int budgets = rule.budgets.size();
    long[][] peaks = new long[budgets][trackedKeys];
    int[] peakCounts = new int[budgets];
    for (KeyTally key : tally.keys.values()) {
      keyCounts.add(key.requests, key.refused > 0);
      if (key.earlyRetries > 0 && top > 0) {
        earliest.add(key);
        if (earliest.size() > top) {
          earliest.poll();
        }
      }
      if (key.refused > 0) {
        refusedKeys++;
        if (top > 0) {
          worst.add(key);
          if (worst.size() > top) {
            worst.poll();
          }
        }
      }
      for (int b = 0; b < budgets; b++) {
        if (key.peaks[b] != null) {
          peaks[b][peakCounts[b]++] = key.peaks[b].peak();
        }
      }
    }
    this.keysRefused = refusedKeys;
    this.histogram = keyCounts;
    List<KeyTally> topList = new ArrayList<>(worst);
    topList.sort(MOST_REFUSED);
    this.topRefused = Collections.unmodifiableList(topList);
    this.earlyRetries = tally.earlyRetries;
    List<KeyTally> earlyList = new ArrayList<>(earliest);
    earlyList.sort(MOST_EARLY_RETRIES);
    this.topEarlyRetries = Collections.unmodifiableList(earlyList);
    List<LimitSuggestion> limits = new ArrayList<>(budgets);
    if (rule.replayability == ReplayedRule.Replayability.REPLAYED) {
      for (int b = 0; b < budgets; b++) {
        limits.add(
            LimitSuggestion.of(
                rule.budgets.get(b), java.util.Arrays.copyOf(peaks[b], peakCounts[b])));
      }
    }
    this.suggestions = Collections.unmodifiableList(limits);
  }

  /** Would-refuse as a share of matched, from 0 to 1; 0 when nothing matched. */
  double refusedShare() {
    return matched == 0 ? 0 : (double) refused / matched;
  }

  /** What a rule that is not replayed matched: by its paths and methods, or by methods only. */
  String unreplayableMatches() {
    return rule.config.paths().isEmpty()
        ? Figures.count(unreplayable) + " requests had its methods; it names no path, so any of"
            + " them could have been on its route."
        : Figures.count(unreplayable) + " requests matched its paths and methods.";
  }

  /**
   * Whether the log could not feed a rule it replays: the rule's paths and methods matched
   * requests, but none of them had its key (or each was allowlisted), so it decided none.
   */
  boolean unfed() {
    return replayed() && matched == 0 && uncounted > 0;
  }

  /**
   * Whether the rule counts only some statuses and no logged request ended with one of them, so
   * that no key needs any limit (its limits-needed table would have no row).
   */
  boolean countedNothing() {
    if (rule.counting() == null || trackedKeys == 0) {
      return false;
    }
    for (LimitSuggestion s : suggestions) {
      if (s.keys > 0) {
        return false;
      }
    }
    return !suggestions.isEmpty();
  }

  /** The line (lower case, as the text report's) that stands for the limits needed of a rule that {@link #countedNothing()}. */
  String countedNothingLine() {
    return "limits needed: none; no matched request was logged with a status the rule counts ("
        + rule.counting() + ").";
  }

  /** The one line (lower case, as the text report's) that says why an {@link #unfed()} rule has no figures. */
  String unfedLine() {
    String why = rule.whyKeyless();
    boolean allowlist = !rule.config.allow().isEmpty();
    return "not fed by this log: none of the " + Figures.count(uncounted) + " requests it matched"
        + " had its key (" + rule.key() + ")" + (allowlist ? " or each was allowlisted" : "")
        + (why == null ? "." : ": " + why + ".");
  }

  /** What the retry-storm section says first (lower case, as the text report's lines). */
  String earlyRetriesLine() {
    return Figures.count(earlyRetries) + " request" + (earlyRetries == 1 ? " was" : "s were")
        + " refused again before the Retry-After " + (earlyRetries == 1 ? "its" : "their")
        + " key was last given (early retries" + (keysExact ? "" : ", of the keys tracked")
        + "); the agent counts them in tollgate_early_retries_total.";
  }

  /** Seconds with one decimal, as the agent's log shows how soon a key came back. */
  static String seconds(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e9);
  }

  boolean replayed() {
    return rule.replayability != ReplayedRule.Replayability.NEEDS_ROUTE;
  }
}
