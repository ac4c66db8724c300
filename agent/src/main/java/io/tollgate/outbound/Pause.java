package io.tollgate.outbound;

import java.util.concurrent.locks.LockSupport;

/** Parks the calling thread until a {@link System#nanoTime()}, never past it. */
final class Pause {

  private Pause() {}

  /**
   * Parks until {@code deadline}; false when the thread is interrupted first (its flag stays set,
   * so the client sees it as it would without the agent).
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
      LockSupport.parkNanos(left);
    }
  }
}
