package io.tollgate.outbound;

import io.tollgate.diagnostics.metrics.OutboundRuleMetrics;
import java.util.Collections;
import java.util.List;

/**
 * One outbound rule in force as {@code status} shows it: what it is, its counters since the agent
 * started, and the partner's waits holding its keys now.
 */
public final class OutboundRuleState {

  public final String name;
  /** The rules file's name of the algorithm: {@code gcra}, {@code token-bucket}... */
  public final String algorithm;
  /** As people write it: {@code 8/1s}, or {@code 8/1s, 100/1m} for several limits. */
  public final String limit;
  public final boolean shadow;
  /** {@code wait} (pace, up to max-wait) or {@code fail} (at once), as the rule says. */
  public final String onLimit;
  public final OutboundRuleMetrics metrics;
  /** The waits in force, the soonest to end first. */
  public final List<PartnerHold> holds;

  OutboundRuleState(String name, String algorithm, String limit, boolean shadow, String onLimit,
      OutboundRuleMetrics metrics, List<PartnerHold> holds) {
    this.name = name;
    this.algorithm = algorithm;
    this.limit = limit;
    this.shadow = shadow;
    this.onLimit = onLimit;
    this.metrics = metrics;
    this.holds = Collections.unmodifiableList(holds);
  }
}
