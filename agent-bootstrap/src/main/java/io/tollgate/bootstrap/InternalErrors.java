package io.tollgate.bootstrap;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the agent's own failures and logs each kind at most once a minute.
 *
 * <p>A failure inside the agent never reaches the application (the request passes), but it must
 * not pass silently either; nor may a failure on every request flood the application's log.
 *
 * <p>Reporting never throws either: it runs in the bridge's catch blocks, where the failure being
 * reported may be an {@link OutOfMemoryError} or a {@link StackOverflowError} that strikes again
 * while the message is built or logged, or an exception whose {@code toString} throws. Whatever
 * happens while reporting is dropped (and counted in {@link #lostReports()}), never thrown.
 */
public final class InternalErrors {

  private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int MAX_TRACKED_PLACES = 1000;

  private static final AtomicLong COUNT = new AtomicLong();
  private static final AtomicLong LOST_REPORTS = new AtomicLong();
  private static final ConcurrentMap<String, AtomicLong> LAST_LOGGED = new ConcurrentHashMap<>();

  private InternalErrors() {}

  /**
   * Records a failure while {@code doing} something at the woven entry point {@code entryPoint};
   * the message is built here, inside the guard, rather than in the caller's catch block.
   */
  public static void report(String doing, int entryPoint, Throwable failure) {
    try {
      COUNT.incrementAndGet();
      log(doing + " (entry point " + entryPoint + ")", failure);
    } catch (Throwable lost) {
      lose();
    }
  }

  /** Records a failure while {@code doing} something; logs it unless logged within a minute. */
  public static void report(String doing, Throwable failure) {
    try {
      COUNT.incrementAndGet();
      log(doing, failure);
    } catch (Throwable lost) {
      lose();
    }
  }

  private static void lose() {
    try {
      LOST_REPORTS.incrementAndGet();
    } catch (Throwable ignored) {
      // nothing left to do that could not fail the same way
    }
  }

  private static void log(String doing, Throwable failure) {
    String place = doing + ": " + failure.getClass().getName();
    long now = System.nanoTime();
    AtomicLong last = LAST_LOGGED.get(place);
    if (last == null) {
      if (LAST_LOGGED.size() >= MAX_TRACKED_PLACES) {
        return;
      }
      last = LAST_LOGGED.computeIfAbsent(place, k -> new AtomicLong(now - LOG_INTERVAL_NANOS));
    }
    long previous = last.get();
    if (now - previous >= LOG_INTERVAL_NANOS && last.compareAndSet(previous, now)) {
      AgentLogSink.error(
          "internal error while " + doing + "; the request was let through: " + failure, failure);
    }
  }

  /** Reports that failed themselves (out of memory or stack while logging): dropped, not thrown. */
  public static long lostReports() {
    return LOST_REPORTS.get();
  }

  /** Failures since start; tests expect 0 unless they inject one. */
  public static long count() {
    return COUNT.get();
  }
}
