package io.tollgate.outbound;

import java.util.concurrent.locks.LockSupport;

/** Parks the calling thread until a {@link System#nanoTime()}, never past it. */
final class Pause {

  /** How a thread is parked for a while: tests put in one that wakes late, as a stalled host does. */
  interface Parker {
    void park(long nanos);
  }

  private static final Parker PARK_NANOS = LockSupport::parkNanos;

  /** {@link LockSupport#parkNanos} but in tests ({@link #parkWith}). */
  private static volatile Parker parker = PARK_NANOS;

  private Pause() {}

  /**
   * Parks until {@code deadline}; false when the thread is interrupted first (its flag stays set,
   * so the client sees it as it would without the agent). The thread may wake well after the
   * deadline when the host does not run it in time: the caller looks at the clock again.
   */
  static boolean until(long deadline) {
    while (true) {
      if (Thread.currentThread().isInterrupted()) {
        return false;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return true;
      }
      parker.park(left);
    }
  }

  /** Tests only: parks with {@code test} (null: as in production). */
  static void parkWith(Parker test) {
    parker = test == null ? PARK_NANOS : test;
  }
}
