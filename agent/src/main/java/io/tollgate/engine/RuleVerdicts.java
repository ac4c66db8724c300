package io.tollgate.engine;

import io.tollgate.limiters.Verdict;
import io.tollgate.rules.Rule;
import java.util.ArrayList;
import java.util.List;

/**
 * Every matching rule's verdict on one request, and what they add up to: refused when any
 * enforcing rule refuses; the wait is the longest among the refusing rules.
 */
public final class RuleVerdicts {

  /** One rule's verdict on the request, with the key and cost it was charged. */
  public static final class Entry {
    public final Rule rule;
    public final String key;
    public final long cost;
    public final Verdict verdict;

    Entry(Rule rule, String key, long cost, Verdict verdict) {
      this.rule = rule;
      this.key = key;
      this.cost = cost;
      this.verdict = verdict;
    }
  }

  private final List<Entry> entries = new ArrayList<>(2);
  private Entry refusedBy;
  private Entry wouldRefuse;
  private boolean released;

  void add(Rule rule, String key, long cost, Verdict verdict) {
    Entry entry = new Entry(rule, key, cost, verdict);
    entries.add(entry);
    if (!verdict.allowed) {
      if (rule.isShadow()) {
        wouldRefuse = entry;
      } else if (refusedBy == null || verdict.retryAfterNanos > refusedBy.verdict.retryAfterNanos) {
        refusedBy = entry;
      }
    }
  }

  public List<Entry> entries() {
    return entries;
  }

  /** How many rules have decided so far. */
  public int size() {
    return entries.size();
  }

  /**
   * Gives back what the allowed requests of concurrency rules hold: at the end, or at once when the
   * request is refused. Only the first call gives anything back.
   */
  public synchronized void releaseHeld() {
    if (released) {
      return;
    }
    released = true;
    for (Entry entry : entries) {
      if (entry.verdict.allowed && entry.rule.releasesAtEnd()) {
        entry.rule.store().release(entry.key, entry.cost);
      }
    }
  }

  /** Whether {@link #releaseHeld} has anything to give back. */
  public synchronized boolean holdsAnything() {
    if (released) {
      return false;
    }
    for (Entry entry : entries) {
      if (entry.verdict.allowed && entry.rule.releasesAtEnd()) {
        return true;
      }
    }
    return false;
  }

  public boolean refused() {
    return refusedBy != null;
  }

  /** The enforcing rule with the longest wait among those that refused, or null. */
  public Entry refusedBy() {
    return refusedBy;
  }

  /** A shadow rule that would have refused, or null. */
  public Entry wouldRefuse() {
    return wouldRefuse;
  }
}
