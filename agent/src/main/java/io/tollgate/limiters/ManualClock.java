package io.tollgate.limiters;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to: for tests, and for replaying traffic exactly. */
public final class ManualClock implements Clock {

  private final AtomicLong nanos;

  public ManualClock(long startNanos) {
    this.nanos = new AtomicLong(startNanos);
  }

  public static ManualClock atEpochMillis(long epochMillis) {
    return new ManualClock(TimeUnit.MILLISECONDS.toNanos(epochMillis));
  }

  @Override
  public long nowNanos() {
    return nanos.get();
  }

  public void advanceNanos(long delta) {
    nanos.addAndGet(delta);
  }

  public void advanceMillis(long millis) {
    advanceNanos(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  public void setNanos(long value) {
    nanos.set(value);
  }
}
