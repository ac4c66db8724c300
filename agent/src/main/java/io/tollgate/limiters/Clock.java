package io.tollgate.limiters;

/**
 * The time source of every limiter: nanoseconds since the Unix epoch.
 *
 * <p>Epoch-based so that fixed windows can start at whole multiples of their period since the
 * epoch; tests substitute a {@link ManualClock} so that refill timing is exact and repeatable.
 */
public interface Clock {

  /** Nanoseconds since 1970-01-01T00:00:00Z; never goes backwards. */
  long nowNanos();

  /** The process clock: monotonic, and aligned with the wall clock once, at start. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
