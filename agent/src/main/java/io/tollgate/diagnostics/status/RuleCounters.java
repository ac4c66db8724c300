package io.tollgate.diagnostics.status;

import io.tollgate.diagnostics.metrics.EarlyRetryKey;
import io.tollgate.diagnostics.metrics.HeavyKeys;
import io.tollgate.diagnostics.metrics.RuleMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code status} shows of each rule's counters: every counter becomes a per-second column of
 * the text table and a total and a rate in the JSON, every key list a "top keys" line. A new
 * counter of {@link RuleMetrics} is shown by adding its one line here; nothing else changes (the
 * snapshot, the rates, the text and the JSON all go through these lists).
 */
public final class RuleCounters {

  /** How many keys of each list the snapshot carries (the text shows fewer). */
  static final int TOP_KEYS = 10;

  /** One list of keys, heaviest first: its JSON name, its heading, how it is read. */
  public static final class KeyList {
    public final String name;
    public final String heading;
    final Function<RuleMetrics, List<KeyCount>> reader;

    KeyList(String name, String heading, Function<RuleMetrics, List<KeyCount>> reader) {
      this.name = name;
      this.heading = heading;
      this.reader = reader;
    }
  }

  /** The counters, in the order of the table's columns. */
  public static final List<StatusCounter<RuleMetrics>> COUNTERS = List.of(
      new StatusCounter<>("allowed", "ALLOWED/S", RuleMetrics::getAllowed),
      new StatusCounter<>("refused", "REFUSED/S", RuleMetrics::getRefused),
      new StatusCounter<>("wouldRefuse", "WOULD-REFUSE/S", RuleMetrics::getWouldRefuse),
      new StatusCounter<>("onFailure", "ON-FAILURE/S", RuleMetrics::getBackendErrors),
      new StatusCounter<>("earlyRetries", "EARLY-RETRY/S", RuleMetrics::earlyRetries));

  /** The key lists, in the order they are printed. */
  public static final List<KeyList> KEY_LISTS = List.of(
      new KeyList("refused", "top refused keys (would-refuse too; counts since the agent started)",
          RuleCounters::refusedKeys),
      new KeyList("earlyRetries", "top keys retrying before their Retry-After (counts since the"
          + " agent started)", RuleCounters::earlyRetryKeys));

  private RuleCounters() {}

  private static List<KeyCount> refusedKeys(RuleMetrics metrics) {
    List<KeyCount> keys = new ArrayList<>();
    for (HeavyKeys.Entry entry : metrics.topRefusedKeys()) {
      keys.add(new KeyCount(entry.key, entry.count, entry.error));
    }
    return keys;
  }

  private static List<KeyCount> earlyRetryKeys(RuleMetrics metrics) {
    List<KeyCount> keys = new ArrayList<>();
    for (EarlyRetryKey entry : metrics.topEarlyRetryKeys(TOP_KEYS)) {
      keys.add(new KeyCount(entry.key(), entry.count(), 0, String.format(Locale.ROOT,
          "told %d s, came back after %.1f s", entry.toldSeconds(), entry.cameBackAfterSeconds())));
    }
    return keys;
  }

  /** Every counter of {@code metrics} by name; zeros for a rule that has decided nothing yet (null). */
  public static Map<String, Long> read(RuleMetrics metrics) {
    return StatusCounter.readAll(COUNTERS, metrics);
  }

  /** Every key list of {@code metrics} by name, at most {@link #TOP_KEYS} keys each. */
  public static Map<String, List<KeyCount>> readKeys(RuleMetrics metrics) {
    Map<String, List<KeyCount>> lists = new LinkedHashMap<>();
    for (KeyList list : KEY_LISTS) {
      List<KeyCount> keys = metrics == null ? List.of() : list.reader.apply(metrics);
      lists.put(list.name, keys.subList(0, Math.min(TOP_KEYS, keys.size())));
    }
    return lists;
  }
}
