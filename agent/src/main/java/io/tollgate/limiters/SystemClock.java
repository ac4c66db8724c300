package io.tollgate.limiters;

import java.util.concurrent.TimeUnit;

/**
 * Wall-clock time read once at start, advanced by {@link System#nanoTime()}.
 *
 * <p>{@code System.currentTimeMillis()} can step backwards (NTP, VM pauses); a bucket that sees
 * time go backwards would hand out tokens twice. Anchoring the monotonic clock to the epoch once
 * keeps both properties that limiters need: monotonic, and epoch-aligned to within the start error.
 */
final class SystemClock implements Clock {

  static final SystemClock INSTANCE = new SystemClock();

  private final long epochNanosAtStart = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
  private final long nanoTimeAtStart = System.nanoTime();

  private SystemClock() {}

  @Override
  public long nowNanos() {
    return epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart);
  }
}
