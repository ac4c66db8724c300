package io.tollgate.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waiting on a condition instead of a sleep: a test on a busy machine takes as long as it needs, up
 * to a bound far above what a quiet one takes, and fails with what it was waiting for.
 */
public final class Conditions {

  private static final long TIMEOUT_SECONDS = 60;

  private Conditions() {}

  /** Polls {@code condition} every 20 ms for up to 60 s; an AssertionError naming {@code what} after. */
  public static void awaitTrue(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + TIMEOUT_SECONDS + " s: " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
