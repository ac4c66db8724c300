package io.tollgate.replay;

import io.tollgate.limiters.Clock;
import io.tollgate.limiters.ManualClock;
import java.util.concurrent.TimeUnit;

/**
 * The engine's clock during a replay: the time of the request being replayed, as the log says.
 * Logs step back a little now and then (requests logged as they end, several files' lines
 * interleaved at the same second): the clock never goes backwards, so such a request is decided
 * at the latest time seen so far, and the steps back are counted.
 */
final class LogClock {

  private final ManualClock clock = new ManualClock(Long.MIN_VALUE);
  private boolean started;
  private long stepsBack;
  private long longestStepBackMillis;

  /** The clock the rules are built with. */
  Clock clock() {
    return clock;
  }

  /** Moves to the time of the next request, unless that is earlier than now. */
  void moveTo(long epochMillis) {
    long nanos = TimeUnit.MILLISECONDS.toNanos(epochMillis);
    long now = clock.nowNanos();
    if (!started || nanos >= now) {
      clock.setNanos(nanos);
      started = true;
    } else {
      stepsBack++;
      longestStepBackMillis = Math.max(longestStepBackMillis, (now - nanos) / 1_000_000L);
    }
  }

  long nowNanos() {
    return clock.nowNanos();
  }

  long nowMillis() {
    return Math.floorDiv(clock.nowNanos(), 1_000_000L);
  }

  /** How many requests were logged earlier than one before them. */
  long stepsBack() {
    return stepsBack;
  }

  long longestStepBackMillis() {
    return longestStepBackMillis;
  }
}
