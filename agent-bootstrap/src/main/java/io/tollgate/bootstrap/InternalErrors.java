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
 */
public final class InternalErrors {

  private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int MAX_TRACKED_PLACES = 1000;

  private static final AtomicLong COUNT = new AtomicLong();
  private static final ConcurrentMap<String, AtomicLong> LAST_LOGGED = new ConcurrentHashMap<>();

  private InternalErrors() {}

  /** Records a failure while {@code doing} something; logs it unless logged within a minute. */
  public static void report(String doing, Throwable failure) {
    COUNT.incrementAndGet();
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

  /** Failures since start; tests expect 0 unless they inject one. */
  public static long count() {
    return COUNT.get();
  }
}
