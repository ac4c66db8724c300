package io.tollgate.diagnostics.status;

import io.tollgate.diagnostics.metrics.OutboundRuleMetrics;
import java.util.List;
import java.util.Map;

/**
 * What {@code status} shows of each outbound rule's counters ({@link OutboundRuleMetrics}): each a
 * per-second column of the text's outbound table (with its total) and a total and a rate in the
 * JSON. A new counter is shown by adding its one line here, as {@link RuleCounters} does for the
 * rules that limit what comes in.
 */
public final class OutboundCounters {

  /** The counters, in the order of the table's columns. */
  public static final List<StatusCounter<OutboundRuleMetrics>> COUNTERS = List.of(
      new StatusCounter<>("sent", "SENT/S", OutboundRuleMetrics::getSent),
      new StatusCounter<>("paced", "PACED/S", OutboundRuleMetrics::getPaced),
      new StatusCounter<>("waitedMillis", "WAITED-MS/S", OutboundRuleMetrics::getWaitedMillis),
      new StatusCounter<>("failedFast", "FAILED-FAST/S", OutboundRuleMetrics::getFailedFast),
      new StatusCounter<>("partner429s", "PARTNER-429/S", OutboundRuleMetrics::getPartner429s),
      new StatusCounter<>("wouldLimit", "WOULD-LIMIT/S", OutboundRuleMetrics::getWouldLimit));

  private OutboundCounters() {}

  /** Every counter of {@code metrics} by name; zeros for null. */
  public static Map<String, Long> read(OutboundRuleMetrics metrics) {
    return StatusCounter.readAll(COUNTERS, metrics);
  }
}
