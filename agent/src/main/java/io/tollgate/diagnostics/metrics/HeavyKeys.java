package io.tollgate.diagnostics.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The heaviest keys of a stream, in bounded memory: the Space-Saving algorithm (Metwally, Agrawal
 * and El Abbadi, 2005) with {@code capacity} counters. A key seen more than {@code total /
 * capacity} times is always among the counters; a count may overestimate by at most the
 * counter's {@link Entry#error}.
 *
 * <p>Fed only on refusals, which are the rare path, so a lock is cheap enough. Keys are stored as
 * shown ({@link #display}): short and printable, never more than {@link #MAX_KEY_CHARS}.
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

  private static final class Counter {
    final String key;
    long count;
    long error;

    Counter(String key, long count, long error) {
      this.key = key;
      this.count = count;
      this.error = error;
    }
  }

  private final int capacity;
  private final Map<String, Counter> counters;

  public HeavyKeys(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    this.capacity = capacity;
    this.counters = new HashMap<>(capacity * 2);
  }

  /** Counts one occurrence of {@code key} (as given: it is shortened and cleaned here). */
  public void add(String key) {
    String shown = display(key);
    synchronized (this) {
      Counter counter = counters.get(shown);
      if (counter != null) {
        counter.count++;
        return;
      }
      if (counters.size() < capacity) {
        counters.put(shown, new Counter(shown, 1, 0));
        return;
      }
      Counter min = null;
      for (Counter c : counters.values()) {
        if (min == null || c.count < min.count) {
          min = c;
        }
      }
      counters.remove(min.key);
      counters.put(shown, new Counter(shown, min.count + 1, min.count));
    }
  }

  /** The counted keys, heaviest first. */
  public List<Entry> top() {
    List<Entry> entries = new ArrayList<>(capacity);
    synchronized (this) {
      for (Counter c : counters.values()) {
        entries.add(new Entry(c.key, c.count, c.error));
      }
    }
    Collections.sort(entries, (a, b) -> {
      int byCount = Long.compare(b.count, a.count);
      return byCount != 0 ? byCount : a.key.compareTo(b.key);
    });
    return entries;
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
