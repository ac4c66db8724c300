package io.tollgate.config;

/**
 * What a request is charged: its {@code cost}, corrected by the response's {@code cost-header},
 * and given back unless it ends with a status of {@code count-when}.
 */
public final class Charging extends ConfigValue {

  private final CostConfig cost;
  private final String costHeader;
  private final CountWhen countWhen;

  /**
   * @param cost null for the default, 1 for every request
   * @param costHeader null when none
   * @param countWhen null when every request counts
   */
  Charging(CostConfig cost, String costHeader, CountWhen countWhen) {
    this.cost = cost == null ? CostConfig.ONE : cost;
    this.costHeader = costHeader;
    this.countWhen = countWhen;
  }

  @Override
  Object[] fields() {
    return new Object[] {cost, costHeader, countWhen};
  }

  /** {@code cost}: default 1 for every request. */
  public CostConfig cost() {
    return cost;
  }

  /** {@code cost-header}: the response header that corrects the cost, or null. */
  public String costHeader() {
    return costHeader;
  }

  /** {@code count-when}: the response statuses that stay charged, or null (all do). */
  public CountWhen countWhen() {
    return countWhen;
  }
}
