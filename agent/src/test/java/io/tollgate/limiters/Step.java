package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One line of a spec table: at {@code atNanos} (from the scenario's start), a request of
 * {@code cost} is expected to be allowed or refused with {@code remaining} left and, when refused,
 * {@code retryAfterNanos} to wait.
 */
final class Step {

  /** A whole minute since the epoch (also a whole second), so windows line up with offsets. */
  static final long T0 = TimeUnit.MILLISECONDS.toNanos(1_700_000_040_000L);

  static final long MS = 1_000_000L;
  static final long S = 1_000_000_000L;

  final long atNanos;
  final long cost;
  final boolean allowed;
  final long remaining;
  final long retryAfterNanos;
  /** Expected delay (GCRA max-delay), or -1 to not check. */
  final long delayNanos;

  private Step(
      long atNanos, long cost, boolean allowed, long remaining, long retryAfterNanos,
      long delayNanos) {
    this.atNanos = atNanos;
    this.cost = cost;
    this.allowed = allowed;
    this.remaining = remaining;
    this.retryAfterNanos = retryAfterNanos;
    this.delayNanos = delayNanos;
  }

  /** At {@code atMs}, cost {@code cost}: allowed with {@code remaining} left. */
  static Step allow(long atMs, long cost, long remaining) {
    return new Step(atMs * MS, cost, true, remaining, 0, 0);
  }

  /** At {@code atMs}, cost {@code cost}: allowed with {@code remaining} left, delayed. */
  static Step delayed(long atMs, long cost, long remaining, long delayNanos) {
    return new Step(atMs * MS, cost, true, remaining, 0, delayNanos);
  }

  /** At {@code atMs}, cost {@code cost}: refused with {@code remaining} left, retry after. */
  static Step refuse(long atMs, long cost, long remaining, long retryAfterNanos) {
    return new Step(atMs * MS, cost, false, remaining, retryAfterNanos, 0);
  }

  /** Same steps, in nanoseconds rather than milliseconds. */
  static Step allowNanos(long atNanos, long cost, long remaining) {
    return new Step(atNanos, cost, true, remaining, 0, 0);
  }

  static Step refuseNanos(long atNanos, long cost, long remaining, long retryAfterNanos) {
    return new Step(atNanos, cost, false, remaining, retryAfterNanos, 0);
  }

  /** Runs the steps in order on a fresh state, starting at {@code start}. */
  static <S> void play(RateLimitAlgorithm<S> algorithm, long start, List<Step> steps) {
    S state = algorithm.newState();
    Verdict verdict = new Verdict();
    int i = 0;
    for (Step step : steps) {
      algorithm.decide(state, start + step.atNanos, step.cost, verdict);
      String where = "step " + i + " at +" + step.atNanos + "ns cost " + step.cost + ": " + verdict;
      assertEquals(step.allowed, verdict.allowed, where);
      assertEquals(step.remaining, verdict.remaining, where);
      assertEquals(step.retryAfterNanos, verdict.retryAfterNanos, where);
      if (step.delayNanos >= 0) {
        assertEquals(step.delayNanos, verdict.delayNanos, where);
      }
      i++;
    }
  }

  static <S> void play(RateLimitAlgorithm<S> algorithm, List<Step> steps) {
    play(algorithm, T0, steps);
  }

  @Override
  public String toString() {
    return "+" + atNanos + "ns x" + cost + " -> " + (allowed ? "allowed" : "refused")
        + " remaining " + remaining + (allowed ? "" : " retry " + retryAfterNanos + "ns");
  }
}
