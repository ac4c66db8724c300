package io.tollgate.logging;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Logs a message at most once per interval per topic, so that a condition true on every request
 * (a shadow rule that would refuse a flood) leaves a trace without flooding the log.
 */
public final class RateLimitedLog {

  private static final int MAX_TOPICS = 10_000;

  private final long intervalNanos;
  private final ConcurrentMap<String, AtomicLong> lastLogged = new ConcurrentHashMap<>();

  public RateLimitedLog(long intervalMillis) {
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
  }

  /**
   * Builds and logs the message unless this topic was logged within the interval; returns whether
   * it logged.
   */
  public boolean log(String topic, Supplier<String> message) {
    if (due(topic)) {
      AgentLog.info(message.get());
      return true;
    }
    return false;
  }

  /** As {@link #log}, as a warning. */
  public void warn(String topic, Supplier<String> message) {
    if (due(topic)) {
      AgentLog.warn(message.get());
    }
  }

  /** As {@link #log}, as an error. */
  public void error(String topic, Supplier<String> message) {
    if (due(topic)) {
      AgentLog.error(message.get());
    }
  }

  /** Whether this topic may be logged now; if so, it may not again for the interval. */
  private boolean due(String topic) {
    long now = System.nanoTime();
    AtomicLong last = lastLogged.get(topic);
    if (last == null) {
      if (lastLogged.size() >= MAX_TOPICS) {
        lastLogged.clear();
      }
      last = lastLogged.computeIfAbsent(topic, t -> new AtomicLong(now - intervalNanos));
    }
    long previous = last.get();
    return now - previous >= intervalNanos && last.compareAndSet(previous, now);
  }
}
