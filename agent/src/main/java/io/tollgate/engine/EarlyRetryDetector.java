package io.tollgate.engine;

import io.tollgate.diagnostics.EarlyRetryLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
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
 * <p>Bounded memory: a table shared by every rule, of {@link #MIN_SLOTS} slots at first, doubled
 * while keys still told to wait are pushed out of it, up to {@link #MAX_SLOTS} (then 32,768 keys
 * remembered: the table's two arrays are 256 KB, and each key remembered holds a {@link Slot} of
 * 40 bytes and, once it has retried early, its log line). Each slot holds one (rule, key), known
 * by the rule's name and the key's fingerprint (64 bits, {@link #fingerprint}), and its last
 * refusal. A key goes to one bucket of {@link #WAYS} slots chosen by its hash, in a
 * free slot or in place of the key whose wait ends first (whose wait is over, if one is). So a key
 * keeps its slot while it is told to wait, unless more keys than a bucket holds are refused at
 * once; then a key forgotten is one whose early retries go uncounted until its next refusal, never
 * one counted wrongly (but for two keys of a rule in one bucket with the same 32-bit hash and the
 * same fingerprint: a chance of 2^-64 per look, and keys cannot be chosen to share one, its seed
 * being drawn when the JVM starts). A table doubled starts with the keys of the one before (those that fit; a
 * refusal meanwhile may be forgotten).
 *
 * <p>Readers need no lock. A slot holds one key for as long as the key keeps it, and the key's
 * refusals write its last refusal there in place, the time and the wait told as one {@code long}
 * ({@link Slot#wait}): a flood's refusals (the same key, its {@code Retry-After} a second lower
 * each second) allocate nothing, and a reader never pairs one refusal's wait with another's time,
 * nor one key's wait or line with another key's. Beside the slots, an array of {@code int}s holds
 * each slot's key hash, so that a look for a key reads its bucket's few words and follows only the
 * slot whose hash is the key's.
 *
 * <p>A slot keeps the key's fingerprint, not the key: under a flood of many keys a look at its
 * slot is a cache miss for each object it reads, and comparing the key itself read two more (the
 * key's {@code String} and its bytes) on every refusal; and the keys remembered are not kept in
 * memory by the table.
 */
final class EarlyRetryDetector {

  /** Slots of a bucket: the key hashes a look for a key reads, in one cache line or two. */
  static final int WAYS = 8;
  /** The table's first size: a power of two. */
  static final int MIN_SLOTS = 4096;
  /** The most it grows to: a power of two. */
  static final int MAX_SLOTS = 32768;

  /** Bits of {@link Slot#wait} for the wait told, in seconds: up to 388 days. */
  private static final int TOLD_BITS = 25;
  private static final long MAX_TOLD_SECONDS = (1L << TOLD_BITS) - 1;
  /**
   * The time of a refusal is kept in milliseconds since {@link #base}, in the other 39 bits: 17
   * years. Past that the detector counts nothing (it cannot say when a key was refused).
   */
  private static final long MAX_MILLIS = (1L << (64 - TOLD_BITS)) - 1;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  /** {@link #base} is this much before the detector was made: a caller's reading may be older. */
  private static final long BASE_MARGIN_NANOS = 3_600_000_000_000L;

  /**
   * One (rule, key) and its last refusal; once it has retried early, its line of the log (kept
   * here, so that the log needs no table of keys). The key is the slot's for as long as it stays:
   * each refusal of it writes {@link #wait} in place, and its line is set once.
   */
  private static final class Slot {
    private static final VarHandle WAIT;
    private static final VarHandle LINE;

    static {
      try {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        WAIT = lookup.findVarHandle(Slot.class, "wait", long.class);
        LINE = lookup.findVarHandle(Slot.class, "line", EarlyRetryLog.KeyLine.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    final String rule;
    /** The key's {@link EarlyRetryDetector#fingerprint}. */
    final long print;
    final int hash;
    /**
     * The last refusal: its time in milliseconds since {@link EarlyRetryDetector#base} (the high
     * 39 bits) and the wait it told in seconds (the low {@link EarlyRetryDetector#TOLD_BITS}), one
     * value, so that a reader never sees
     * one refusal's time with another's wait. Written by a release store: two threads refusing one
     * key at once race for it (each writes a whole refusal), and a fence would be paid by every
     * refusal of a flood for what only the next refusal of the key reads.
     */
    private volatile long wait;
    private volatile EarlyRetryLog.KeyLine line;

    Slot(String rule, long print, int hash, long wait) {
      this.rule = rule;
      this.print = print;
      this.hash = hash;
      WAIT.setRelease(this, wait);
    }

    boolean holds(int hash, long print, String rule) {
      return this.hash == hash && this.print == print && this.rule.equals(rule);
    }

    void refusedAgain(long wait) {
      WAIT.setRelease(this, wait);
    }

    /** When the wait last told ends, in milliseconds since {@link EarlyRetryDetector#base}. */
    long waitEndsMillis() {
      long last = wait;
      return (last >>> TOLD_BITS) + (last & MAX_TOLD_SECONDS) * 1000;
    }

    /** The key's line of the log, made at its first early retry (one, whichever thread makes it). */
    EarlyRetryLog.KeyLine line(long nowNanos) {
      EarlyRetryLog.KeyLine kept = line;
      if (kept != null) {
        return kept;
      }
      EarlyRetryLog.KeyLine none = null; // typed, so that the call is the VarHandle's exact one
      EarlyRetryLog.KeyLine made = new EarlyRetryLog.KeyLine(nowNanos);
      EarlyRetryLog.KeyLine other = (EarlyRetryLog.KeyLine) LINE.compareAndExchange(this, none, made);
      return other == null ? made : other;
    }
  }

  /**
   * The slots, and beside each the hash of its key (never 0 for a slot in use), so that a look
   * for a key reads its bucket's few {@code int}s and follows only the slot whose hash is the
   * key's. A hash is written after its slot; a reader that sees a hash ahead of its slot (or
   * behind it) finds the slot not the key's and takes the key as forgotten.
   */
  private static final class Table {
    final AtomicReferenceArray<Slot> slots;
    final AtomicIntegerArray hashes;
    final int ways;
    final int bucketMask;
    /** Keys pushed out while still told to wait: past a share of the slots, the table doubles. */
    final LongAdder pushedOut = new LongAdder();

    Table(int size) {
      slots = new AtomicReferenceArray<>(size);
      hashes = new AtomicIntegerArray(size);
      ways = Math.min(WAYS, size);
      bucketMask = size / ways - 1;
    }

    int size() {
      return slots.length();
    }

    int bucketStart(int hash) {
      return (hash & bucketMask) * ways;
    }

    /**
     * Where a new key of {@code hash} goes: a free slot, else the one whose wait ends first (the
     * bucket's slots read: a key not remembered, the rare case once the table holds the keys).
     */
    int placeFor(int hash) {
      int start = bucketStart(hash);
      int place = start;
      long firstEnd = Long.MAX_VALUE;
      for (int i = start; i < start + ways; i++) {
        Slot slot = slots.get(i);
        if (slot == null || hashes.get(i) == 0) {
          return i;
        }
        long end = slot.waitEndsMillis();
        if (end < firstEnd) {
          firstEnd = end;
          place = i;
        }
      }
      return place;
    }

    void put(int place, Slot slot) {
      slots.setRelease(place, slot);
      hashes.setRelease(place, slot.hash);
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

  private volatile Table table;
  private final int maxSlots;
  private final AtomicBoolean growing = new AtomicBoolean();
  private final LongSupplier nanoClock;
  /** The clock's reading that refusal times count from, in milliseconds. */
  private final long base;

  /** Reads {@code nanoClock}, which the {@link EarlyRetryLog} the early retries go to reads too. */
  EarlyRetryDetector(LongSupplier nanoClock) {
    this(MIN_SLOTS, MAX_SLOTS, nanoClock);
  }

  /** A table of {@code slots} that never grows. */
  EarlyRetryDetector(int slots, LongSupplier nanoClock) {
    this(slots, slots, nanoClock);
  }

  EarlyRetryDetector(int minSlots, int maxSlots, LongSupplier nanoClock) {
    for (int slots : new int[] {minSlots, maxSlots}) {
      if (slots < 2 || Integer.bitCount(slots) != 1) {
        throw new IllegalArgumentException("slots must be a power of two: " + slots);
      }
    }
    if (maxSlots < minSlots) {
      throw new IllegalArgumentException("at most " + maxSlots + " slots, fewer than " + minSlots);
    }
    this.table = new Table(minSlots);
    this.maxSlots = maxSlots;
    this.nanoClock = nanoClock;
    this.base = nanoClock.getAsLong() - BASE_MARGIN_NANOS;
  }

  /** The slots the table has now. */
  int slots() {
    return table.size();
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
    // whole milliseconds, rounded down alike for both refusals: a retry measured a millisecond
    // short may go uncounted, one that waited as told is never counted
    long nowMillis = Math.floorDiv(now - base, NANOS_PER_MILLI);
    if (nowMillis < 0 || nowMillis > MAX_MILLIS) {
      return false; // a time it cannot keep: nothing remembered, nothing counted
    }
    long told = Math.max(0, Math.min(toldSeconds, MAX_TOLD_SECONDS));
    long wait = nowMillis << TOLD_BITS | told;
    int hash = hash(rule, key);
    long print = fingerprint(key);
    Table t = table;
    int start = t.bucketStart(hash);
    for (int i = start; i < start + t.ways; i++) {
      if (t.hashes.get(i) != hash) {
        continue;
      }
      Slot slot = t.slots.get(i);
      if (slot == null || !slot.holds(hash, print, rule)) {
        continue;
      }
      long last = slot.wait;
      slot.refusedAgain(wait);
      long lastTold = last & MAX_TOLD_SECONDS;
      long afterMillis = nowMillis - (last >>> TOLD_BITS);
      if (afterMillis >= lastTold * 1000) {
        return false; // waited as told
      }
      early.set(lastTold, Math.max(0, afterMillis) * NANOS_PER_MILLI, slot.line(now));
      return true;
    }
    int place = t.placeFor(hash);
    Slot replaced = t.slots.get(place);
    if (replaced != null && replaced.waitEndsMillis() > nowMillis) {
      pushedOutWhileWaiting(t);
    }
    t.put(place, new Slot(rule, print, hash, wait));
    return false;
  }

  /**
   * A key still told to wait was pushed out of {@code t}: once that has happened to a quarter as
   * many keys as it has slots, the table doubles (up to {@link #maxSlots}), so that a flood of
   * more keys than it holds is remembered rather than forgotten and remembered again.
   */
  private void pushedOutWhileWaiting(Table t) {
    if (t.size() >= maxSlots) {
      return;
    }
    t.pushedOut.increment();
    if (t.pushedOut.sum() < t.size() / 4 || !growing.compareAndSet(false, true)) {
      return;
    }
    try {
      if (table == t) {
        table = doubled(t);
      }
    } finally {
      growing.set(false);
    }
  }

  /** A table twice {@code t}'s size with {@code t}'s keys, those that fit their new bucket. */
  private static Table doubled(Table t) {
    Table bigger = new Table(t.size() * 2);
    for (int i = 0; i < t.size(); i++) {
      Slot slot = t.slots.get(i);
      if (slot == null || t.hashes.get(i) != slot.hash) {
        continue; // a slot being replaced: its key forgotten
      }
      int place = bigger.placeFor(slot.hash);
      if (bigger.hashes.get(place) == 0) {
        bigger.put(place, slot);
      }
    }
    return bigger;
  }

  /** The key's hash over the table, never 0 (a hash of 0 is a free slot). */
  private static int hash(String rule, String key) {
    int h = spread(rule.hashCode() * 31 + key.hashCode());
    return h == 0 ? 1 : h;
  }

  /** Drawn when the JVM starts, so that keys with the same fingerprint cannot be chosen beforehand. */
  private static final long SEED = new java.util.SplittableRandom().nextLong();

  /**
   * 64 bits of a key, beside its 32-bit {@link #hash} (and with the rule's name, which a slot
   * keeps): every character, two at a time, through a multiply by an odd constant from a seed
   * drawn at start, then Murmur3's 64-bit finalizer.
   */
  static long fingerprint(String key) {
    long h = SEED;
    int n = key.length();
    int i = 0;
    for (; i + 1 < n; i += 2) {
      h = (h ^ (key.charAt(i) | (long) key.charAt(i + 1) << 16)) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
    }
    if (i < n) {
      h = (h ^ key.charAt(i)) * 0x9E3779B97F4A7C15L;
    }
    h ^= n;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
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
