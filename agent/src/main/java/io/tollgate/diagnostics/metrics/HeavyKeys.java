package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The heaviest keys of a stream, in bounded memory: the Space-Saving algorithm (Metwally, Agrawal
 * and El Abbadi, 2005) with {@code capacity} counters in each of {@link #STRIPES} stripes. A key
 * seen more than {@code total / capacity} times is always among the counters; a count may
 * overestimate by at most the counter's {@link Entry#error}.
 *
 * <p>Fed on every refusal, the common case under a flood, so a key already counted costs a look
 * through its stripe's few counters ({@link SpaceSaving}) and one increment, with no lock and
 * nothing allocated; a key not among the counters is counted in its cell of the stripe's filter
 * (one atomic increment), and takes the smallest counter's place only once its cell has counted
 * as often as the smallest counter (about one such refusal in 13 under a uniform flood of 10,000
 * keys, where it was every one): then it takes the stripe's lock, and never waits for it (while
 * another thread replaces a counter, the cell counts it). Memory: the counters, and once a
 * stripe's are full, 1 KB of filter cells per stripe of 10 counters. Keys are shown ({@link
 * #display}: short and printable, never more than {@link #MAX_KEY_CHARS}) when the counters are
 * read ({@link #top}), not when counted: under a flood of new keys counters are replaced often,
 * and showing the key there would make a string per replacement that nobody reads.
 *
 * <p>The keys are spread by their hash over {@link #STRIPES} stripes, each a Space-Saving of
 * {@code capacity} counters with its own lock, so that no lock is shared by every refusal of a
 * rule (a flood of new keys from many threads tries one of several, and does not bounce one lock's
 * word between every core). A key is always counted in the same stripe, so its count is what one
 * Space-Saving over all keys would give, or closer (its stripe saw fewer keys), and the heaviest
 * {@code capacity} keys are always shown, however they fall.
 */
public final class HeavyKeys {

  static final int MAX_KEY_CHARS = 48;

  /** One counted key. */
  public static final class Entry {
    public final String key;
    public final long count;
    public final long error;

    Entry(String key, long count, long error) {
      this.key = key;
      this.count = count;
      this.error = error;
    }

    @Override
    public String toString() {
      return key + "=" + count + (error > 0 ? " (+/-" + error + ")" : "");
    }
  }

  private static final class Counter extends SpaceSaving.Counter {
    private static final long serialVersionUID = 1L;
    final long error;

    Counter(String key, long count, long error) {
      super(key, count);
      this.error = error;
    }
  }

  /** Stripes of keys, each with its own counters and lock: a power of two. */
  static final int STRIPES = 4;

  private final int capacity;
  /** By the key as given (so a hit needs no {@link #display}). */
  private final List<SpaceSaving<Counter>> stripes = new ArrayList<>(STRIPES);

  public HeavyKeys(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    this.capacity = capacity;
    for (int i = 0; i < STRIPES; i++) {
      stripes.add(new SpaceSaving<>(capacity));
    }
  }

  /** Counts one occurrence of {@code key} (as given: it is shortened and cleaned for display). */
  public void add(String key) {
    String k = key == null ? "-" : key;
    int h = k.hashCode();
    // Space-Saving: a new key takes a free counter, or the smallest's place and its count
    stripes.get((h ^ (h >>> 16)) & (STRIPES - 1)).add(k, h, HeavyKeys::newCounter, null);
  }

  private static Counter newCounter(String key, long inherited, Void unused) {
    return new Counter(key, inherited + 1, inherited);
  }

  /**
   * The counted keys, heaviest first, at most {@code capacity} of them; two keys that show alike
   * (cut at {@link #MAX_KEY_CHARS}) are one entry.
   */
  public List<Entry> top() {
    Map<String, long[]> byShown = new HashMap<>(capacity * 2 * STRIPES);
    for (SpaceSaving<Counter> stripe : stripes) {
      for (Counter c : stripe.all()) {
        long[] sum = byShown.computeIfAbsent(display(c.key), s -> new long[2]);
        sum[0] += c.sum();
        sum[1] += c.error;
      }
    }
    List<Entry> entries = new ArrayList<>(byShown.size());
    for (Map.Entry<String, long[]> e : byShown.entrySet()) {
      entries.add(new Entry(e.getKey(), e.getValue()[0], e.getValue()[1]));
    }
    Collections.sort(entries, (a, b) -> {
      int byCount = Long.compare(b.count, a.count);
      return byCount != 0 ? byCount : a.key.compareTo(b.key);
    });
    return entries.size() <= capacity ? entries : new ArrayList<>(entries.subList(0, capacity));
  }

  /**
   * A key as metrics show it: printable ASCII, at most {@link #MAX_KEY_CHARS} characters. Secret
   * key parts (API keys, cookies) are already hashed by the key resolver.
   */
  static String display(String key) {
    if (key == null) {
      return "-";
    }
    boolean cut = key.length() > MAX_KEY_CHARS;
    String head = cut ? key.substring(0, MAX_KEY_CHARS - 3) : key;
    StringBuilder out = new StringBuilder(head.length() + 3);
    for (int i = 0; i < head.length(); i++) {
      char c = head.charAt(i);
      out.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c : '?');
    }
    if (cut) {
      out.append("...");
    }
    return out.toString();
  }
}
