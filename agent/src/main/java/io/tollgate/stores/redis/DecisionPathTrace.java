package io.tollgate.stores.redis;

import io.tollgate.logging.AgentLog;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A benchmark's view of how a backend's decisions ended ({@code -Dtollgate.test.late-trace=true}
 * as {@link LateReplyTrace}, off otherwise): answered, or by which path they failed (the breaker
 * open, no connection by the deadline, rejected while disconnected past it, the connection gone
 * with the call on it, late, not sent), a call per decision or batched apart; printed to the
 * agent's log every 250 ms while the counts change (on {@link TracePrinter}'s thread), so that a
 * reset's decisions can be followed to the path that admitted them ({@code run-redis-faults.sh
 * TRACE=1}, round {@code drop}).
 * Off, nothing is counted and nothing runs.
 */
final class DecisionPathTrace {

  static final boolean ON = LateReplyTrace.ON;

  /** How a decision left {@link RedisBackend#eval}. */
  enum Path {
    ANSWERED,
    /** Sent again after Lettuce rejected it while disconnected (a retry, not an end). */
    RETRIED_AFTER_REJECT,
    CIRCUIT_OPEN,
    /** Not connected, and the breaker not closed (a reconnect failed): on-failure. */
    NOT_CONNECTED_BREAKER,
    /**
     * Not connected by the decision's timeout: no drop young enough to wait longer for (the local
     * share, {@link RedisFailure#RECONNECTING}; traces older than that kind read on-failure here).
     */
    NOT_CONNECTED_BY_TIMEOUT,
    /**
     * Not connected after waiting for the reconnect within max-wait of the drop (the local share,
     * {@link RedisFailure#RECONNECTING}; traces older than that kind read on-failure here).
     */
    NOT_CONNECTED_BY_RECONNECT_WAIT,
    /**
     * Rejected while disconnected past its wait, the reconnect not failed: the local share ({@link
     * RedisFailure#RECONNECTING}; a failed reconnect is {@link #REJECTED_RECONNECT_FAILED}).
     */
    REJECTED_PAST_DEADLINE,
    /** Rejected while disconnected, a reconnect failed (the breaker not closed): on-failure. */
    REJECTED_RECONNECT_FAILED,
    LOST_WITH_CONNECTION,
    UNREACHABLE_OTHER,
    LATE,
    NOT_SENT_BUSY,
    OTHER
  }

  private static final AtomicLongArray SINGLE = new AtomicLongArray(Path.values().length);
  private static final AtomicLongArray BATCHED = new AtomicLongArray(Path.values().length);
  /**
   * {@link EventLoopBarrier}: how often a thread waited for the event loop (it had not run since
   * the moment asked about), the nanoseconds waited in all and at most, and how often the loop had
   * not run within the bound (the silence this JVM's, Redis not counted silent).
   */
  private static final AtomicLongArray BARRIER = new AtomicLongArray(4);
  /** The messages of failures counted as {@link Path#UNREACHABLE_OTHER}, the first few. */
  private static final ConcurrentHashMap<String, Boolean> OTHER_MESSAGES =
      new ConcurrentHashMap<>();

  static {
    if (ON) {
      long[][] printed = {new long[0], new long[0], new long[0]};
      TracePrinter.every(250, () -> {
        long[] single = snapshot(SINGLE);
        long[] batched = snapshot(BATCHED);
        long[] barrier = snapshot(BARRIER);
        if (Arrays.equals(single, printed[0]) && Arrays.equals(batched, printed[1])
            && Arrays.equals(barrier, printed[2])) {
          return;
        }
        printed[0] = single;
        printed[1] = batched;
        printed[2] = barrier;
        AgentLog.info("path-trace ms=" + System.currentTimeMillis() + " single:" + line(single)
            + " batched:" + line(batched) + " other=" + OTHER_MESSAGES.keySet()
            + " loop_barrier: waited=" + barrier[0] + " waited_ms=" + barrier[1] / 1_000_000
            + " longest_ms=" + barrier[2] / 1_000_000 + " not_run=" + barrier[3]);
      });
    }
  }

  private DecisionPathTrace() {}

  static void count(boolean batched, Path path) {
    if (ON) {
      (batched ? BATCHED : SINGLE).incrementAndGet(path.ordinal());
    }
  }

  /** A wait for the event loop ({@link EventLoopBarrier}): how long, and whether it ran. */
  static void countBarrier(long waitedNanos, boolean ran) {
    if (ON) {
      BARRIER.incrementAndGet(0);
      BARRIER.addAndGet(1, waitedNanos);
      BARRIER.accumulateAndGet(2, waitedNanos, Math::max);
      if (!ran) {
        BARRIER.incrementAndGet(3);
      }
    }
  }

  static void countOther(boolean batched, Throwable failure) {
    if (ON) {
      count(batched, Path.UNREACHABLE_OTHER);
      if (OTHER_MESSAGES.size() < 8) {
        OTHER_MESSAGES.putIfAbsent(RedisBackend.describe(failure), Boolean.TRUE);
      }
    }
  }

  private static long[] snapshot(AtomicLongArray counts) {
    long[] out = new long[counts.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = counts.get(i);
    }
    return out;
  }

  private static String line(long[] counts) {
    StringBuilder out = new StringBuilder();
    for (Path p : Path.values()) {
      out.append(' ').append(p.name().toLowerCase(Locale.ROOT)).append('=')
          .append(counts[p.ordinal()]);
    }
    return out.toString();
  }
}
