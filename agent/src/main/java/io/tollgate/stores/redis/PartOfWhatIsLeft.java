package io.tollgate.stores.redis;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This instance's part of what Redis last said was left of each key's budget ({@code remaining /
 * instances}), less what the instance has sent for the key since: a second bound, beside the local
 * share, on what the share may admit while Redis is late.
 *
 * <p>Why: the local share is charged with this instance's own requests only. An instance that got
 * fewer of Redis's tokens than its share still had share left when the others spent the budget,
 * and under a saturating flood (replies past the timeout, the bulkhead full) it admitted that on
 * top of the limit: 112-114 of 100 in the reload rounds of the fault benchmark on a saturated host.
 * Redis's answers to this instance say how much is left of the whole budget; a part of it bounds
 * the share's admissions until the next answer.
 *
 * <p>Why a second bound and not the share itself lowered to it: each of the instance's requests
 * is taken from the share before it is sent and is in Redis's next {@code remaining} too, so a
 * share lowered to each answer counted the instance's requests twice (the slow ladder admitted
 * 60-91 of 100); and set to each answer, raised too, it followed answers that were late by the
 * others' requests since (112 of 100 with replies 200 ms late). Here the part is worked out
 * afresh from each answer, and the share keeps its own count.
 *
 * <p>Replies on a connection come in the order of the calls, so what was sent after a call is not
 * in its answer's {@code remaining}: counted in striped totals of units sent (a key's hash picks
 * the stripe; keys that share one only make the bound tighter). An answer older than {@link
 * #FRESH_NANOS} bounds nothing (the budget has refilled since). At most {@code maxKeys} keys are
 * remembered; when full, all are forgotten (each key's next answer is remembered again).
 */
final class PartOfWhatIsLeft {

  private static final int STRIPES = 256;
  static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final AtomicLongArray sent = new AtomicLongArray(STRIPES);
  private final ConcurrentHashMap<String, Heard> heard = new ConcurrentHashMap<>();
  private final long maxKeys;

  private static final class Heard {
    /** What Redis said was left of the whole budget: 0 when it refused. */
    final long remaining;
    final long mark;
    final long atNanos;

    Heard(long remaining, long mark, long atNanos) {
      this.remaining = remaining;
      this.mark = mark;
      this.atNanos = atNanos;
    }
  }

  PartOfWhatIsLeft(long maxKeys) {
    this.maxKeys = Math.max(1, maxKeys);
  }

  /** A call for {@code key} of {@code cost} units is being sent; returns its mark. */
  long sending(String key, long cost) {
    return sent.addAndGet(stripe(key), cost);
  }

  /**
   * Redis answered the call marked {@code mark}: allowed with {@code remaining} left of the whole
   * budget, or refused (nothing left).
   */
  void answered(String key, long mark, boolean allowed, long remaining, long nowNanos) {
    if (heard.size() >= maxKeys && !heard.containsKey(key)) {
      heard.clear();
    }
    heard.put(key, new Heard(allowed ? Math.max(0, remaining) : 0, mark, nowNanos));
  }

  /**
   * Whether a request already counted by {@link #sending} fits in this instance's part (of
   * {@code instances}, as counted now) of what Redis last said was left; true when nothing recent
   * was heard of the key.
   */
  boolean fits(String key, int instances, long nowNanos) {
    Heard last = heard.get(key);
    if (last == null) {
      return true;
    }
    if (nowNanos - last.atNanos > FRESH_NANOS) {
      heard.remove(key, last);
      return true;
    }
    long part = last.remaining / Math.max(1, instances);
    return part - (sent.get(stripe(key)) - last.mark) >= 0;
  }

  private static int stripe(String key) {
    return (key.hashCode() & 0x7fffffff) % STRIPES;
  }
}
