package io.tollgate.replay;

import java.util.Arrays;

/**
 * The limits one budget of a rule would have needed, from each key's peak ({@link WindowPeak}: the
 * most units it sent within any one period):
 *
 * <ul>
 *   <li>{@link #refusingNoOne}: the largest peak. A {@code sliding-log} limit this high refuses
 *       no key, and one lower refuses the key that reached it. It is enough for {@code
 *       fixed-window}, and for {@code token-bucket} and {@code gcra} with a burst no smaller than
 *       the limit (a bucket refills a period's limit every period), though those may need less;
 *       {@code sliding-window}'s estimate can count a little more than happened.
 *   <li>{@link #percentile99} and {@link #percentile999}: the peak of the key at the 99th (99.9th)
 *       percentile by the nearest-rank method, so that at least 99% (99.9%) of the keys have a
 *       peak no higher: the smallest limit that would have refused at least 99% (99.9%) of the
 *       keys nothing.
 * </ul>
 */
final class LimitSuggestion {

  final String budget;
  final long limit;
  final long periodNanos;
  /** How many keys used this budget (the tracked ones). */
  final int keys;
  final long refusingNoOne;
  final long percentile99;
  final long percentile999;

  private LimitSuggestion(
      String budget, long limit, long periodNanos, int keys, long max, long p99, long p999) {
    this.budget = budget;
    this.limit = limit;
    this.periodNanos = periodNanos;
    this.keys = keys;
    this.refusingNoOne = max;
    this.percentile99 = p99;
    this.percentile999 = p999;
  }

  /** From the peaks of every key that used the budget, in any order. */
  static LimitSuggestion of(ReplayedRule.Budget budget, long[] peaks) {
    long[] sorted = peaks.clone();
    Arrays.sort(sorted);
    return new LimitSuggestion(
        budget.label,
        budget.limit,
        budget.periodNanos,
        sorted.length,
        sorted.length == 0 ? 0 : sorted[sorted.length - 1],
        nearestRank(sorted, 99, 100),
        nearestRank(sorted, 999, 1000));
  }

  /** The value at rank {@code ceil(n * numerator / denominator)} (from 1) of {@code sorted}; 0 when empty. */
  static long nearestRank(long[] sorted, long numerator, long denominator) {
    if (sorted.length == 0) {
      return 0;
    }
    long rank = (sorted.length * numerator + denominator - 1) / denominator;
    return sorted[(int) Math.max(0, rank - 1)];
  }
}
