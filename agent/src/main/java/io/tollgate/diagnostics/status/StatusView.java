package io.tollgate.diagnostics.status;

/**
 * A snapshot seen against the one before it: each counter's total now and its rate per second
 * over the interval between the two. The agent keeps totals only; rates are what the command
 * makes of two of them, so the agent holds nothing per second.
 */
public final class StatusView {

  public final StatusSnapshot previous;
  public final StatusSnapshot current;

  /** {@code previous} may be null (no rates then), or a snapshot of the same JVM taken earlier. */
  public StatusView(StatusSnapshot previous, StatusSnapshot current) {
    this.previous = previous;
    this.current = current;
  }

  /** Seconds between the two snapshots; 0 without an earlier one. */
  public double intervalSeconds() {
    if (previous == null || current.takenNanos <= previous.takenNanos) {
      return 0;
    }
    return (current.takenNanos - previous.takenNanos) / 1e9;
  }

  /**
   * The rule's counter per second over the interval; null when there is no rate to give (no
   * earlier snapshot, or the rule was not in force in it).
   */
  public Double rate(RuleStatus rule, String counter) {
    RuleStatus before = previous == null ? null : previous.rule(rule.name);
    if (before == null) {
      return null;
    }
    return rate(before.counter(counter), rule.counter(counter));
  }

  /**
   * The rule's lease counter per second over the interval, as {@link #rate(RuleStatus, String)};
   * null too when the rule did not lease in the earlier snapshot.
   */
  public Double leaseRate(RuleStatus rule, String counter) {
    RuleStatus before = previous == null ? null : previous.rule(rule.name);
    if (before == null || !before.leases()) {
      return null;
    }
    return rate(before.leaseCounter(counter), rule.leaseCounter(counter));
  }

  /** The outbound rule's counter per second over the interval, as {@link #rate(RuleStatus, String)}. */
  public Double rate(OutboundStatus rule, String counter) {
    OutboundStatus before = previous == null ? null : previous.outboundRule(rule.name);
    if (before == null) {
      return null;
    }
    return rate(before.counter(counter), rule.counter(counter));
  }

  /** The backend's counter per second over the interval, as {@link #rate(RuleStatus, String)}. */
  public Double backendRate(String counter) {
    if (previous == null || !previous.backend.kind.equals(current.backend.kind)) {
      return null;
    }
    return rate(previous.backend.counter(counter), current.backend.counter(counter));
  }

  private Double rate(long before, long now) {
    double seconds = intervalSeconds();
    if (seconds <= 0 || now < before) {
      return null; // a counter never goes down: another backend, or another agent, was asked
    }
    return (now - before) / seconds;
  }

  /** What {@code status} exits with: 1 when the agent reports a problem, else 0. */
  public boolean hasProblems() {
    return !current.problems.isEmpty();
  }
}
