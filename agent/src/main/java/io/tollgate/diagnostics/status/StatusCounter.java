package io.tollgate.diagnostics.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * One counter of a {@code status} table, of a rule ({@link RuleCounters}) or an outbound rule
 * ({@link OutboundCounters}): its JSON name, its column heading (a rate: the text adds the total),
 * and how it is read from the metrics {@code M}.
 */
public final class StatusCounter<M> {
  public final String name;
  public final String heading;
  private final ToLongFunction<M> reader;

  StatusCounter(String name, String heading, ToLongFunction<M> reader) {
    this.name = name;
    this.heading = heading;
    this.reader = reader;
  }

  /** Every one of {@code counters} read from {@code metrics}, by name; zeros for null. */
  static <M> Map<String, Long> readAll(List<StatusCounter<M>> counters, M metrics) {
    Map<String, Long> values = new LinkedHashMap<>();
    for (StatusCounter<M> counter : counters) {
      values.put(counter.name, metrics == null ? 0 : counter.reader.applyAsLong(metrics));
    }
    return values;
  }
}
