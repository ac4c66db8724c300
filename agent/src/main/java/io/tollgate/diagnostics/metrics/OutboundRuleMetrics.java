package io.tollgate.diagnostics.metrics;

import java.util.concurrent.atomic.LongAdder;

/** The counters of one outbound rule since the agent started; see {@link OutboundMetrics}. */
public final class OutboundRuleMetrics implements OutboundRuleMetricsMBean {

  private final String rule;
  private final LongAdder sent = new LongAdder();
  private final LongAdder paced = new LongAdder();
  private final LongAdder waitedNanos = new LongAdder();
  private final LongAdder failedFast = new LongAdder();
  private final LongAdder partner429s = new LongAdder();
  private final LongAdder wouldLimit = new LongAdder();

  OutboundRuleMetrics(String rule) {
    this.rule = rule;
  }

  /** A call went out after waiting {@code waitedNanos} (0: at once). */
  public void sent(long waitedNanos) {
    sent.increment();
    if (waitedNanos > 0) {
      paced.increment();
      this.waitedNanos.add(waitedNanos);
    }
  }

  /** A call failed fast after waiting {@code waitedNanos} (0: at once). */
  public void failedFast(long waitedNanos) {
    failedFast.increment();
    if (waitedNanos > 0) {
      this.waitedNanos.add(waitedNanos);
    }
  }

  public void partner429() {
    partner429s.increment();
  }

  /** A shadow rule's call would have been paced or failed; it went out at once. */
  public void wouldLimit() {
    wouldLimit.increment();
  }

  @Override
  public String getRule() {
    return rule;
  }

  @Override
  public long getSent() {
    return sent.sum();
  }

  @Override
  public long getPaced() {
    return paced.sum();
  }

  /** The waited time in nanoseconds, for Prometheus. */
  public long getWaitedNanos() {
    return waitedNanos.sum();
  }

  @Override
  public long getWaitedMillis() {
    return waitedNanos.sum() / 1_000_000;
  }

  @Override
  public long getFailedFast() {
    return failedFast.sum();
  }

  @Override
  public long getPartner429s() {
    return partner429s.sum();
  }

  @Override
  public long getWouldLimit() {
    return wouldLimit.sum();
  }
}
