package io.tollgate.engine;

import java.util.concurrent.TimeUnit;

/**
 * Holds a request on its own thread for the delay a GCRA rule with {@code max-delay} gave it, so
 * that requests leave evenly spaced instead of being refused (as nginx's {@code limit_req} without
 * {@code nodelay}). The wait is bounded by the rule's {@code max-delay}, which the rules file caps
 * at 10 s; an interrupt ends it early and is kept for the application to see.
 */
final class RequestPacing {

  private RequestPacing() {}

  static void hold(long delayNanos) {
    if (delayNanos <= 0) {
      return;
    }
    long deadline = System.nanoTime() + delayNanos;
    long left = delayNanos;
    while (left > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      left = deadline - System.nanoTime();
    }
  }
}
