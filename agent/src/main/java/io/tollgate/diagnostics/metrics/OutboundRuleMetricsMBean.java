package io.tollgate.diagnostics.metrics;

/** One outbound rule's counters over JMX ({@code io.tollgate:type=OutboundRule,name=RULE}). */
public interface OutboundRuleMetricsMBean {

  String getRule();

  /** Calls the rule let out (at once or after pacing). */
  long getSent();

  /** Calls that waited their turn before going out. */
  long getPaced();

  /** The time calls waited in all, in milliseconds. */
  long getWaitedMillis();

  /** Calls failed fast: no room within the rule's wait, or {@code on-limit: fail}. */
  long getFailedFast();

  /** The partner's 429 answers to calls the rule matched. */
  long getPartner429s();

  /** Shadow mode: calls that would have been paced or failed (they went out at once). */
  long getWouldLimit();
}
