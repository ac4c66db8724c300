package io.tollgate.stores.redis;

import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;

/**
 * How a rule's local share, divided anew because the number of instances changed, keeps what each
 * key had used of it: the same fraction of the share stays used. A share is this instance's part
 * of what Redis has left; when 3 instances become 6 or 6 become 3, the budget Redis has left is
 * the same, so a key whose share was spent (Redis refused it) stays spent, and a key that had used
 * half of its share has used half of the new one.
 *
 * <p>Not the reload's carry ({@link RateLimitAlgorithm#inherit}, the units used stay used): from
 * 16 of 100 (6 instances) to 33 (3 instances), 16 used would leave 17 fresh units to every
 * instance of a budget that is spent. Not afresh either (the share before this): a full share for
 * every key at every change of the count, which a benchmark met as 112 admitted of 100 when the
 * instances of a previous run dropped out of the registry during a flood.
 *
 * <p>Permits in flight ({@code concurrency}) stay held as they are: they are given back one by
 * one when their requests end.
 */
final class ShareCarry {

  private ShareCarry() {}

  /** {@code divided} takes over {@code previous}'s keys, each as this class says. */
  static <S> void takeOver(
      LocalLimiterStore<S> divided, LocalLimiterStore<?> previous, boolean carriesState) {
    RateLimitAlgorithm<S> next = divided.algorithm();
    if (!carriesState) {
      divided.inheritFrom(previous); // permits held stay held
      return;
    }
    divided.takeOver(previous, (writer, state, nowNanos) -> sameFractionUsed(
        writer, state, next, nowNanos));
  }

  /**
   * A state of {@code next} that has used the fraction of its capacity that {@code state} had of
   * {@code writer}'s, rounded up (a share never grows by the rounding); null (fresh) when nothing
   * was used.
   */
  static <S> S sameFractionUsed(
      RateLimitAlgorithm<?> writer, Object state, RateLimitAlgorithm<S> next, long nowNanos) {
    long capacity = unitsLeft(writer, writer.newState(), nowNanos);
    long left = Math.min(capacity, unitsLeft(writer, state, nowNanos));
    if (capacity <= 0 || left >= capacity) {
      return null;
    }
    S carried = next.newState();
    long nextCapacity = unitsLeft(next, carried, nowNanos);
    long used = capacity - left;
    long nextUsed;
    try {
      nextUsed = ceilDiv(Math.multiplyExact(used, nextCapacity), capacity);
    } catch (ArithmeticException tooLarge) {
      nextUsed = nextCapacity; // never met at sane limits; spent is the safe side
    }
    if (nextUsed > 0) {
      next.adjust(carried, nowNanos, Math.min(nextUsed, nextCapacity));
    }
    return carried;
  }

  /**
   * The units {@code state} has left now: the remaining of a decision of cost 0, which takes
   * nothing (the state may be brought up to now, as any decision does; it is being replaced).
   */
  @SuppressWarnings("unchecked")
  private static long unitsLeft(RateLimitAlgorithm<?> algorithm, Object state, long nowNanos) {
    Verdict verdict = new Verdict();
    ((RateLimitAlgorithm<Object>) algorithm).decide(state, nowNanos, 0, verdict);
    return verdict.allowed ? Math.max(0, verdict.remaining) : 0;
  }

  private static long ceilDiv(long a, long b) {
    return a / b + (a % b == 0 ? 0 : 1);
  }
}
