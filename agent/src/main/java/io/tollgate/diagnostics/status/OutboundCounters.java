package io.tollgate.diagnostics.status;

import io.tollgate.diagnostics.metrics.OutboundRuleMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What {@code status} shows of each outbound rule's counters ({@link OutboundRuleMetrics}): each a
 * per-second column of the text's outbound table (with its total) and a total and a rate in the
 * JSON. A new counter is shown by adding its one line here, as {@link RuleCounters} does for the
 * rules that limit what comes in.
 */
public final class OutboundCounters {

  /** One counter: its JSON name, its column heading (a rate: the text adds the total), its reader. */
  public static final class Counter {
    public final String name;
    public final String heading;
    final ToLongFunction<OutboundRuleMetrics> reader;

    Counter(String name, String heading, ToLongFunction<OutboundRuleMetrics> reader) {
      this.name = name;
      this.heading = heading;
      this.reader = reader;
    }
  }

  /** The counters, in the order of the table's columns. */
  public static final List<Counter> COUNTERS = List.of(
      new Counter("sent", "SENT/S", OutboundRuleMetrics::getSent),
      new Counter("paced", "PACED/S", OutboundRuleMetrics::getPaced),
      new Counter("waitedMillis", "WAITED-MS/S", OutboundRuleMetrics::getWaitedMillis),
      new Counter("failedFast", "FAILED-FAST/S", OutboundRuleMetrics::getFailedFast),
      new Counter("partner429s", "PARTNER-429/S", OutboundRuleMetrics::getPartner429s),
      new Counter("wouldLimit", "WOULD-LIMIT/S", OutboundRuleMetrics::getWouldLimit));

  private OutboundCounters() {}

  /** Every counter of {@code metrics} by name; zeros for null. */
  public static Map<String, Long> read(OutboundRuleMetrics metrics) {
    Map<String, Long> counters = new LinkedHashMap<>();
    for (Counter counter : COUNTERS) {
      counters.put(counter.name, metrics == null ? 0 : counter.reader.applyAsLong(metrics));
    }
    return counters;
  }
}
