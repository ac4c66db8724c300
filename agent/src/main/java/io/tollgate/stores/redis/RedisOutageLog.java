package io.tollgate.stores.redis;

import io.tollgate.logging.AgentLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What an operator reads about one Redis backend's decisions: the first decision it could not
 * make (timed out, refused, an error reply such as OOM, not connected), a reminder at most once a
 * minute while that lasts, and a line when it answers again, with how long it did not and how
 * many decisions fell back to their rule's {@code on-failure} meanwhile. Each rule's counter of
 * those is its {@code BackendErrors} metric.
 *
 * <p>While Redis answers, {@link #answered} costs one volatile read.
 */
final class RedisOutageLog {

  private static final long REMINDER_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String backend;
  /** When decisions began to fail ({@link System#nanoTime}, never 0), or 0 while Redis answers. */
  private final AtomicLong failingSince = new AtomicLong();
  private final AtomicLong lastReminder = new AtomicLong();
  private final LongAdder failedDecisions = new LongAdder();
  private final AtomicLong lastLateLine = new AtomicLong();
  private final LongAdder lateDecisions = new LongAdder();
  /** Since the backend was made, never reset: what {@code status} turns into rates. */
  private final LongAdder failedTotal = new LongAdder();
  private final LongAdder lateTotal = new LongAdder();

  RedisOutageLog(String backend) {
    this.backend = backend;
  }

  /** A decision Redis could not make, for {@code reason}. */
  void decisionFailed(String reason) {
    failedDecisions.increment();
    failedTotal.increment();
    long now = System.nanoTime() | 1;
    if (failingSince.get() == 0 && failingSince.compareAndSet(0, now)) {
      lastReminder.set(now);
      AgentLog.warn("redis at " + backend + " cannot decide (" + reason + "): each rule on it applies"
          + " its on-failure policy until it answers again");
      return;
    }
    long last = lastReminder.get();
    if (now - last >= REMINDER_NANOS && lastReminder.compareAndSet(last, now)) {
      long since = failingSince.get();
      AgentLog.warn("redis at " + backend + " still cannot decide (" + reason + "), for "
          + (since == 0 ? "?" : secondsSince(since) + " s") + "; "
          + failedDecisions.sum() + " decisions fell back to on-failure so far");
    }
  }

  /**
   * A decision Redis is alive for but did not make in time (a reply later than the hard bound, a
   * connection that answered nothing for that long, the bulkhead full, a reconnect after a drop
   * slower than the hard bound that has not failed, or whose attempts were reset partway while
   * Redis answered within the connect timeout, or a call on the wire when the connection
   * dropped), made by its rule's local
   * share: not an outage (nothing else changes), but worth a line, at most once a minute, with how
   * many so far.
   */
  void decisionLate(RedisFailure kind, String reason, long maxWaitMillis) {
    lateDecisions.increment();
    lateTotal.increment();
    long now = System.nanoTime() | 1;
    long last = lastLateLine.get();
    if ((last == 0 || now - last >= REMINDER_NANOS) && lastLateLine.compareAndSet(last, now)) {
      AgentLog.warn("redis at " + backend + (kind == RedisFailure.BUSY
              ? " is slow and decisions are not waiting for it (" + reason + ")"
              : kind == RedisFailure.RECONNECTING
                  ? " is slow to reconnect after a drop, and no attempt was refused or timed out"
                      + " (max-wait "
                      + maxWaitMillis + " ms: " + reason + ")"
                  : kind == RedisFailure.LOST
                      ? " dropped the connection with calls on it (" + reason + ")"
                      : " is slow on a live connection (max-wait " + maxWaitMillis + " ms: "
                          + reason + ")")
          + ": " + lateDecisions.sumThenReset()
          + " decision(s) were made by their rule's local share instead, whatever its on-failure"
          + (kind == RedisFailure.LOST
              ? " (their scripts may have run; a reconnect that fails applies on-failure)"
              : kind == RedisFailure.RECONNECTING
                  ? " (a loaded host, or a path that resets attempts partway; on-failure once an"
                      + " attempt is refused or times out, or redis has not answered for the"
                      + " connect timeout)"
                  : " (the host or redis is overloaded; the breaker stays closed)"));
    }
  }

  /** A decision Redis made. */
  void answered() {
    long since = failingSince.get();
    if (since != 0 && failingSince.compareAndSet(since, 0)) {
      AgentLog.info("redis at " + backend + " answers again, after " + secondsSince(since)
          + " s in which " + failedDecisions.sumThenReset()
          + " decisions fell back to on-failure");
    }
  }

  /** Whether decisions are failing now. */
  boolean failing() {
    return failingSince.get() != 0;
  }

  /** Calls Redis did not answer (a decision's on-failure decided), since the backend was made. */
  long failedTotal() {
    return failedTotal.sum();
  }

  /** Calls Redis answered too late (the rule's local share decided), since it was made. */
  long lateTotal() {
    return lateTotal.sum();
  }

  private static String secondsSince(long nanos) {
    long tenths = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos) / 100;
    return tenths / 10 + "." + tenths % 10;
  }
}
