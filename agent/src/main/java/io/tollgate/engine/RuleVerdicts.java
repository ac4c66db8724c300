package io.tollgate.engine;

import io.tollgate.limiters.Verdict;
import io.tollgate.rules.Rule;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * Every matching rule's verdict on one request, and what they add up to: refused when any
 * enforcing rule refuses; the wait is the longest among the refusing rules.
 */
public final class RuleVerdicts {

  /**
   * One budget's verdict on the request, with the key and cost it was charged. {@link #rule} is the
   * budget ({@link Rule#owner()} is the rule of the file).
   */
  public static final class Entry {
    public Rule rule;
    public String key;
    public long cost;
    public Verdict verdict;
    /** Whether {@link #cost} stays charged: allowed, and not given back because a sibling refused. */
    boolean charged;
    /** Whether the request has been held for this entry's delay already. */
    boolean paced;
    /**
     * Whether the request holds permits of this entry's rule until it ends: allowed by a
     * concurrency rule, or counted in flight by an adaptive one in shadow mode, refused or not.
     */
    boolean holds;
    /** When the request was admitted ({@link System#nanoTime()}), for a rule that learns from latency. */
    long admittedNanos;

    /**
     * The client whose {@code per-client} share of {@link #rule}'s permits this request took, given
     * back with the permit; or, when refused, whose share was full; null when none.
     */
    String shareClient;
    /**
     * Whether the request took {@link #shareClient}'s share and gives it back when it ends: not a
     * shadow rule's would-refuse for the share, which runs without taking it.
     */
    boolean tookShare;

    Entry(Rule rule, String key, long cost, Verdict verdict, boolean charged, String shareClient,
        boolean tookShare) {
      set(rule, key, cost, verdict, charged, shareClient, tookShare);
    }

    /**
     * Fills this entry; not final fields, so that a request context reused by its thread's next
     * request ({@link RequestScope}) fills its first entry again rather than making one.
     */
    Entry set(Rule rule, String key, long cost, Verdict verdict, boolean charged,
        String shareClient, boolean tookShare) {
      this.shareClient = shareClient;
      this.tookShare = tookShare && shareClient != null;
      this.rule = rule;
      this.key = key;
      this.cost = cost;
      this.verdict = verdict;
      this.charged = charged;
      this.paced = false;
      this.holds = rule.releasesAtEnd() && (verdict.allowed || rule.holdsWhenRefused());
      this.admittedNanos = holds && rule.learnsFromLatency() ? System.nanoTime() : 0;
      return this;
    }
  }

  /**
   * The entries, in the order the rules decided: the first in a field, the others in an array
   * made for the second, so that a request with one rule allocates no list and no array for it.
   */
  private Entry first;
  private Entry[] more;
  private int size;
  /**
   * How long the latest decision point held the request: its decision, when the engine timed it
   * ({@link DecisionTiming}; 0 for a local decision it did not), and its pacing. Set by the
   * engine, which adds it to the time the request has been held.
   */
  long heldByLastPoint;
  /**
   * The first entry and its verdict, kept by a request context that its thread reuses, so that
   * its next request fills them again ({@link #reset}); null until first needed.
   */
  private Entry spareEntry;
  private Verdict spareVerdict;
  /** The quota headers of a refusal, names and values alternating; made when first needed. */
  private String[] refusalHeaders;
  /** What an early retry of a refused key was ({@link EarlyRetries}); made when first needed. */
  private EarlyRetryDetector.EarlyRetry earlyRetry;
  private Entry refusedBy;
  private Entry wouldRefuse;
  private boolean released;
  private boolean corrected;
  /**
   * Whether an entry may leave work for the end (permits, a cost to correct): set as entries are
   * added, so that the common request, with nothing to do at its end, learns it without a lock.
   */
  private boolean workAtEnd;
  /**
   * Whether an entry was allowed with a delay (GCRA {@code max-delay}): set as entries are added,
   * so that the common request, with none, learns it without looking at each entry.
   */
  private boolean anyDelay;

  void add(Rule rule, String key, long cost, Verdict verdict) {
    add(rule, key, cost, verdict, verdict.allowed);
  }

  void add(Rule rule, String key, long cost, Verdict verdict, boolean charged) {
    add(rule, key, cost, verdict, charged, null);
  }

  /** As above, for a request that took {@code shareClient}'s share of the rule's permits. */
  void add(Rule rule, String key, long cost, Verdict verdict, boolean charged, String shareClient) {
    add(rule, key, cost, verdict, charged, shareClient, true);
  }

  /**
   * As above; {@code tookShare} false for a shadow rule's would-refuse for {@code shareClient}'s
   * share, which holds none of it.
   */
  void add(Rule rule, String key, long cost, Verdict verdict, boolean charged, String shareClient,
      boolean tookShare) {
    Entry entry;
    if (size == 0) {
      entry = spareEntry == null
          ? (spareEntry = new Entry(rule, key, cost, verdict, charged, shareClient, tookShare))
          : spareEntry.set(rule, key, cost, verdict, charged, shareClient, tookShare);
    } else {
      entry = new Entry(rule, key, cost, verdict, charged, shareClient, tookShare);
    }
    if (size == 0) {
      first = entry;
    } else if (more == null) {
      more = new Entry[2];
      more[0] = entry;
    } else {
      if (size - 1 == more.length) {
        more = Arrays.copyOf(more, more.length * 2);
      }
      more[size - 1] = entry;
    }
    size++;
    if (entry.holds || (charged && rule.settlesAtEnd())) {
      workAtEnd = true;
    }
    if (verdict.delayNanos != 0) {
      anyDelay = true;
    }
    if (!verdict.allowed) {
      if (rule.isShadow()) {
        wouldRefuse = entry;
      } else if (refusedBy == null || verdict.retryAfterNanos > refusedBy.verdict.retryAfterNanos) {
        refusedBy = entry;
      }
    }
  }

  /**
   * A verdict for the next rule to write into: for the first, the one kept for reuse (cleared),
   * else a new one. A verdict asked for and not added (a penalty box's check that found the key
   * free) is simply asked for again.
   */
  Verdict nextVerdict() {
    if (size != 0) {
      return new Verdict();
    }
    if (spareVerdict == null) {
      spareVerdict = new Verdict();
    } else {
      spareVerdict.clear();
    }
    return spareVerdict;
  }

  /**
   * Empties these verdicts for the next request of the context that owns them ({@link
   * RequestScope}): called on its thread once nothing else refers to them (the request ended with
   * no work left for its end, or never began).
   */
  void reset() {
    if (more != null) {
      java.util.Arrays.fill(more, null);
    }
    first = null;
    size = 0;
    heldByLastPoint = 0;
    refusedBy = null;
    wouldRefuse = null;
    released = false;
    corrected = false;
    workAtEnd = false;
    anyDelay = false;
  }

  /** An array for a refusal's quota headers ({@link QuotaHeaders#putInto}), kept for reuse. */
  String[] refusalHeaders() {
    if (refusalHeaders == null) {
      refusalHeaders = new String[QuotaHeaders.MAX_ENTRIES];
    }
    return refusalHeaders;
  }

  /**
   * The early retry this request's refusal may be, for {@link EarlyRetries} to fill in and read
   * at once: kept, like {@link #refusalHeaders}, for the requests the context serves next.
   */
  EarlyRetryDetector.EarlyRetry earlyRetry() {
    if (earlyRetry == null) {
      earlyRetry = new EarlyRetryDetector.EarlyRetry();
    }
    return earlyRetry;
  }

  /**
   * The entries, as a read-only list: a view (made for the call, nothing copied) that follows
   * entries added later. The allowed request's path reads {@link #entry} instead.
   */
  public List<Entry> entries() {
    return new AbstractList<Entry>() {
      @Override
      public Entry get(int index) {
        return entry(index);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** The {@code i}-th entry, 0 to {@link #size()} - 1. */
  public Entry entry(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i + " of " + size);
    }
    return i == 0 ? first : more[i - 1];
  }

  /** How many rules have decided so far. */
  public int size() {
    return size;
  }

  /**
   * Gives back what the allowed requests of concurrency rules hold: at once when the request is
   * refused, or when something failed before it could run. Only the first call (of this and
   * {@link #completeHeld}) gives anything back. The adaptive rules learn nothing from it: the
   * request did not run.
   */
  public void releaseHeld() {
    giveBack(false, false);
  }

  /**
   * The request has run and ended, {@code failed} (a 5xx, an exception, a timeout) or not: gives
   * back what it holds, and tells the rules that learn from latency how long it ran and how it
   * ended. Only the first call (of this and {@link #releaseHeld}) gives anything back.
   */
  public void completeHeld(boolean failed) {
    giveBack(true, failed);
  }

  private void giveBack(boolean ran, boolean failed) {
    if (!workAtEnd) {
      return; // no entry holds anything (a refusal's common case): no lock to take
    }
    giveBackHeld(ran, failed);
  }

  private synchronized void giveBackHeld(boolean ran, boolean failed) {
    if (released) {
      return;
    }
    released = true;
    long now = ran ? System.nanoTime() : 0;
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (!entry.holds) {
        continue;
      }
      if (entry.tookShare) {
        entry.rule.clientShare().release(entry.shareClient, entry.cost);
      }
      if (ran && entry.rule.learnsFromLatency()) {
        entry.rule.store().complete(entry.key, entry.cost, now - entry.admittedNanos, failed);
      } else {
        entry.rule.store().release(entry.key, entry.cost);
      }
    }
  }

  /** Whether a rule holding this request learns from how it ends (adaptive concurrency). */
  public synchronized boolean learnsFromOutcome() {
    if (released) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (entry.holds && entry.rule.learnsFromLatency()) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@link #releaseHeld} has anything to give back. */
  public synchronized boolean holdsAnything() {
    if (released) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (entry.holds) {
        return true;
      }
    }
    return false;
  }

  /**
   * How long to hold the request before it proceeds (GCRA {@code max-delay}): the longest delay
   * among enforcing budgets that have not been waited for yet; 0 when refused. Each entry's delay is
   * handed out once, so a later decision point of the same request does not wait for it again.
   */
  public long takeDelayNanos() {
    if (refusedBy != null || !anyDelay) {
      return 0; // nothing to wait for, now or at a later point (an entry's delay sets anyDelay)
    }
    long delay = 0;
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (!entry.paced && entry.charged && !entry.rule.isShadow()) {
        delay = Math.max(delay, entry.verdict.delayNanos);
      }
      entry.paced = true;
    }
    return delay;
  }

  /**
   * Whether something is left to do when the request ends: permits to give back, costs to correct,
   * charges to give back by the response's status.
   */
  public boolean hasWorkAtEnd() {
    return workAtEnd && hasWorkAtEndLocked();
  }

  private synchronized boolean hasWorkAtEndLocked() {
    if (holdsAnything()) {
      return true;
    }
    if (corrected) {
      return false;
    }
    return hasChargesToSettleLocked();
  }

  /**
   * Whether the end of the request may change what it was charged ({@code cost-header}, {@code
   * count-when}): false once settled, and for a refused request, which is never refunded.
   */
  public synchronized boolean hasChargesToSettle() {
    return workAtEnd && hasChargesToSettleLocked();
  }

  private boolean hasChargesToSettleLocked() {
    if (corrected || refusedBy != null) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (entry.charged && entry.rule.settlesAtEnd()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The request is over, with a status this does not know: as {@link #requestEnded(int,
   * java.util.function.Function)} with none, so that {@code count-when} keeps every charge.
   */
  public void requestEnded(java.util.function.Function<String, String> responseHeader) {
    requestEnded(-1, false, responseHeader);
  }

  /**
   * The request is over, with the status the client gets (or -1 when it is not known); a 5xx
   * counts as failed for the rules that learn from latency.
   */
  public void requestEnded(int status, java.util.function.Function<String, String> responseHeader) {
    requestEnded(status, status >= 500, responseHeader);
  }

  /**
   * The request is over: settles what each allowed rule charged ({@link #settleCharges}), then
   * gives back what the request holds, telling the rules that learn from latency how long it ran
   * and whether it {@code failed} (a 5xx, an exception thrown by the application, a timeout):
   * {@link #completeHeld}.
   *
   * @param status the response's status as the client gets it, or -1 when it is not known
   * @param responseHeader the response's header of a name, or null
   */
  public void requestEnded(
      int status, boolean failed, java.util.function.Function<String, String> responseHeader) {
    try {
      settleCharges(status, responseHeader);
    } finally {
      completeHeld(failed);
    }
  }

  /**
   * Once, for each budget that charged the request: when its rule has a {@code count-when} that
   * {@code status} does not match, gives the whole charge back; otherwise, when it has a {@code
   * cost-header}, charges or refunds the difference between what it charged up front and the cost
   * the application reported (a missing or malformed header changes nothing). Nothing is given
   * back to a request that was refused: it was answered by the refusal, not by the application.
   */
  synchronized void settleCharges(
      int status, java.util.function.Function<String, String> responseHeader) {
    if (corrected || refusedBy != null) {
      return;
    }
    corrected = true;
    for (int i = 0; i < size; i++) {
      Entry entry = entry(i);
      if (!entry.charged) {
        continue;
      }
      io.tollgate.config.CountWhen countWhen = entry.rule.countWhen();
      if (countWhen != null && !countWhen.counts(status)) {
        entry.rule.store().adjust(entry.key, -entry.cost);
        continue;
      }
      String header = entry.rule.costHeader();
      if (header == null) {
        continue;
      }
      long actual = parseCost(responseHeader.apply(header));
      if (actual >= 0 && actual != entry.cost) {
        entry.rule.store().adjust(entry.key, actual - entry.cost);
      }
    }
  }

  /** A non-negative decimal cost, or -1 when absent or not one. */
  static long parseCost(String value) {
    if (value == null) {
      return -1;
    }
    String v = value.trim();
    if (v.isEmpty() || v.length() > 18) {
      return -1;
    }
    long n = 0;
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  /**
   * The client an entry's rule refused for holding its {@code per-client} share (the client's
   * part of its share key), or null when the rule refused for another reason.
   */
  static String clientOverShare(Entry entry) {
    String client = entry.verdict.allowed ? null : entry.shareClient;
    return client == null ? null : client.substring(client.indexOf('\n') + 1);
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
