package io.tollgate.replay;

import java.util.HashMap;
import java.util.Map;

/**
 * What one rule did to the replayed requests, as they come: counts, the timeline, and each key's
 * tally, exactly for the first {@code maxTrackedKeys} distinct keys; the keys beyond are counted
 * in the totals and estimated in {@link DistinctEstimate}, with no figures of their own.
 */
final class RuleTally {

  final ReplayedRule rule;
  final int maxTrackedKeys;
  long matched;
  long refused;
  /** Requests that match a rule the log cannot replay ({@link ReplayedRule.Replayability#NEEDS_ROUTE}). */
  long unreplayable;
  /**
   * Requests that match the rule's paths and methods but that it did not count: they lacked its
   * key (a header the log did not record, no user), or its allowlist exempted them.
   */
  long uncounted;
  /**
   * Requests refused again before the {@code Retry-After} their key was last given had elapsed
   * (of the keys tracked: the others have no wait remembered).
   */
  long earlyRetries;
  /** Requests of keys beyond {@link #maxTrackedKeys}. */
  long untrackedRequests;
  final MinuteTimeline timeline = new MinuteTimeline();
  final Map<String, KeyTally> keys = new HashMap<>();
  /** The keys beyond {@link #maxTrackedKeys}; null until there is one. */
  DistinctEstimate untrackedKeys;

  RuleTally(ReplayedRule rule, int maxTrackedKeys) {
    this.rule = rule;
    this.maxTrackedKeys = maxTrackedKeys;
  }

  /**
   * One request the rule decided for {@code key}: the key's tally to add the request's units to
   * each budget's peaks, or null when the key is beyond those tracked.
   */
  KeyTally record(String key, boolean wasRefused, long nowMillis) {
    matched++;
    if (wasRefused) {
      refused++;
    }
    timeline.add(nowMillis, wasRefused);
    KeyTally tally = keys.get(key);
    if (tally == null) {
      if (keys.size() >= maxTrackedKeys) {
        untrackedRequests++;
        if (untrackedKeys == null) {
          untrackedKeys = new DistinctEstimate();
        }
        untrackedKeys.add(key);
        return null;
      }
      tally = new KeyTally(key, rule.budgets.size());
      keys.put(key, tally);
    }
    tally.record(wasRefused, nowMillis);
    return tally;
  }

  /** Whether every key was tracked, so that the per-key figures are exact. */
  boolean exact() {
    return untrackedKeys == null;
  }
}
