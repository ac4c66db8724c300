package io.tollgate.engine;

import io.tollgate.diagnostics.EarlyRetryLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;

/**
 * Remembers, for the keys refused lately, until when each was told to wait, and tells when one
 * comes back (and is refused again) before that: an early retry.
 *
 * <p>Fed only by refusals, so that an allowed request pays nothing: an early retry that the rule
 * lets through (a concurrency permit freed sooner, the rounding of {@code Retry-After} up to whole
 * seconds) is not one it counts. A client in a retry storm is refused again and again, and that
 * is what this finds.
 *
 * <p>Bounded memory: a table of {@link #SLOTS} slots shared by every rule, each holding one (rule,
 * key) and its last refusal. A refused key goes to one of two slots chosen by its hash, replacing
 * whichever of the two was told to wait the shortest while (first one whose wait is over). So a
 * key keeps its slot while it is told to wait, unless more keys than slots are refused at once;
 * then a key forgotten is one whose early retries go uncounted until its next refusal, never one
 * counted wrongly. A slot is replaced whole but for its time of refusal, which a key refused again
 * with the same wait moves on in place ({@link Slot}), so readers need no lock.
 */
final class EarlyRetryDetector {

  /** Slots of the table: a power of two. */
  static final int SLOTS = 8192;

  /**
   * One (rule, key), when it was last refused and for how long it was told to wait; and, once it
   * has retried early, its line of the log (kept here, so that the log needs no table of keys).
   *
   * <p>Only {@link #refusedAtNanos} changes, and only while the key is told the same wait and has
   * the same line: a flood's refusals of one key (the same {@code Retry-After} again and again)
   * move its time on in place instead of each making a new slot. Any other change replaces the
   * slot whole, so that a reader never pairs one refusal's wait with another's line.
   */
  private static final class Slot {
    private static final VarHandle REFUSED_AT;

    static {
      try {
        REFUSED_AT = MethodHandles.lookup().findVarHandle(Slot.class, "refusedAtNanos", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    final String rule;
    final String key;
    /**
     * Written in place by {@link #refusedAgain}: a release store, without the fence of a volatile
     * one (two threads refusing one key at once race for it either way, as they did for the slot).
     */
    private volatile long refusedAtNanos;
    final long toldNanos;
    final EarlyRetryLog.KeyLine line;

    Slot(String rule, String key, long refusedAtNanos, long toldNanos, EarlyRetryLog.KeyLine line) {
      this.rule = rule;
      this.key = key;
      this.refusedAtNanos = refusedAtNanos;
      this.toldNanos = toldNanos;
      this.line = line;
    }

    boolean holds(String rule, String key) {
      return this.key.equals(key) && this.rule.equals(rule);
    }

    long refusedAtNanos() {
      return refusedAtNanos;
    }

    /** Refused again at {@code now}, told the same wait. */
    void refusedAgain(long now) {
      REFUSED_AT.setRelease(this, now);
    }

    long waitEndsNanos() {
      return refusedAtNanos + toldNanos;
    }
  }

  /**
   * A request refused before the wait its key was last told had elapsed. Filled by {@link
   * #refused(String, String, long, long, EarlyRetry)} into one the caller keeps (its request
   * context's: under a flood nearly every refusal is an early retry, and each would otherwise
   * make one), and read by the caller before its next refusal.
   */
  static final class EarlyRetry {
    /** The {@code Retry-After} it had been given, in seconds. */
    long toldSeconds;
    /** How long after that refusal it came back. */
    long afterNanos;
    /** The key's line of the early-retry log. */
    EarlyRetryLog.KeyLine line;

    EarlyRetry set(long toldSeconds, long afterNanos, EarlyRetryLog.KeyLine line) {
      this.toldSeconds = toldSeconds;
      this.afterNanos = afterNanos;
      this.line = line;
      return this;
    }
  }

  private final AtomicReferenceArray<Slot> slots;
  private final int mask;
  private final LongSupplier nanoClock;

  /** Reads {@code nanoClock}, which the {@link EarlyRetryLog} the early retries go to reads too. */
  EarlyRetryDetector(LongSupplier nanoClock) {
    this(SLOTS, nanoClock);
  }

  EarlyRetryDetector(int slots, LongSupplier nanoClock) {
    if (slots < 2 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.slots = new AtomicReferenceArray<>(slots);
    this.mask = slots - 1;
    this.nanoClock = nanoClock;
  }

  /**
   * {@code rule} refused {@code key} now and told it to wait {@code toldSeconds} (its {@code
   * Retry-After}): returns the early retry this refusal was, or null when the key had not been
   * told to wait (or its wait was over, or it was forgotten); and remembers the new wait.
   */
  EarlyRetry refused(String rule, String key, long toldSeconds) {
    return refused(rule, key, toldSeconds, nanoClock.getAsLong());
  }

  /** As above, at {@code now}: a reading of this detector's clock the caller made already. */
  EarlyRetry refused(String rule, String key, long toldSeconds, long now) {
    EarlyRetry early = new EarlyRetry();
    return refused(rule, key, toldSeconds, now, early) ? early : null;
  }

  /** As above, at this detector's clock's reading now, into {@code early}. */
  boolean refused(String rule, String key, long toldSeconds, EarlyRetry early) {
    return refused(rule, key, toldSeconds, nanoClock.getAsLong(), early);
  }

  /**
   * As above, at {@code now}: true when this refusal was an early retry, which {@code early}
   * then describes; false, {@code early} untouched, when it was not.
   */
  boolean refused(String rule, String key, long toldSeconds, long now, EarlyRetry early) {
    int hash = spread(rule.hashCode() * 31 + key.hashCode());
    int first = hash & mask;
    int second = ((hash >>> 13) ^ first) & mask;
    if (second == first) {
      second = first ^ 1;
    }
    Slot a = slots.get(first);
    Slot b = slots.get(second);
    Slot previous = null;
    int place;
    if (a != null && a.holds(rule, key)) {
      previous = a;
      place = first;
    } else if (b != null && b.holds(rule, key)) {
      previous = b;
      place = second;
    } else {
      place = a == null || (b != null && a.waitEndsNanos() - b.waitEndsNanos() <= 0)
          ? first
          : second;
    }
    long told = toldSeconds * 1_000_000_000L;
    long after = previous == null ? 0 : now - previous.refusedAtNanos();
    if (previous == null || after >= previous.toldNanos) {
      // not early: the new wait is remembered (the key's log line kept)
      if (previous != null && previous.toldNanos == told) {
        previous.refusedAgain(now);
      } else {
        slots.set(place, new Slot(rule, key, now, told, previous == null ? null : previous.line));
      }
      return false;
    }
    EarlyRetryLog.KeyLine line = previous.line;
    if (line != null && previous.toldNanos == told) {
      previous.refusedAgain(now); // a storm's common case: the same wait told again
    } else {
      if (line == null) {
        line = new EarlyRetryLog.KeyLine(now);
      }
      slots.set(place, new Slot(rule, key, now, told, line));
    }
    early.set(previous.toldNanos / 1_000_000_000L, Math.max(0, after), line);
    return true;
  }

  /** Murmur3's finalizer: neighbouring hashes (keys 10.0.0.1, 10.0.0.2) land far apart. */
  private static int spread(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
