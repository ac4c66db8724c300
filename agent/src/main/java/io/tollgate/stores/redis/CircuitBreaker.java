package io.tollgate.stores.redis;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A minimal circuit breaker: after {@code failureThreshold} consecutive failures it opens for
 * {@code openNanos}; then exactly one call goes through as a probe. A successful probe closes it,
 * a failed one opens it for another cool-down. While open, calls are refused at once, so an outage
 * costs the timeout only a few times, not on every request.
 *
 * <p>What counts as a failure is the caller's choice, and {@link RedisBackend} counts only what
 * says Redis as a whole cannot answer ({@link RedisFailure#countsTowardBreaker()}): never a slow
 * reply, never one rule's error reply. A connection that cannot be made opens it at once ({@link
 * #open()}); a connection made closes it ({@link #close()}).
 */
public final class CircuitBreaker {

  /** What {@link #tryAcquire} granted. */
  public enum Permit {
    /** Open: do not call the backend. */
    REJECTED,
    /** Closed: call normally. */
    NORMAL,
    /** Half-open: this call is the one probe. */
    PROBE
  }

  /** The breaker's state, for diagnostics and metrics. */
  public enum State {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  private final int failureThreshold;
  private final long openNanos;
  private final LongSupplier nanoTime;

  private final AtomicInteger consecutiveFailures = new AtomicInteger();
  private final AtomicLong openings = new AtomicLong();
  private final AtomicBoolean probeInFlight = new AtomicBoolean();
  /** 0 when closed; else the {@code nanoTime} at which a probe may go. */
  private volatile long openUntil;
  private volatile boolean open;

  public CircuitBreaker(int failureThreshold, long openNanos, LongSupplier nanoTime) {
    if (failureThreshold < 1) {
      throw new IllegalArgumentException("failureThreshold must be at least 1: " + failureThreshold);
    }
    if (openNanos <= 0) {
      throw new IllegalArgumentException("openNanos must be positive: " + openNanos);
    }
    this.failureThreshold = failureThreshold;
    this.openNanos = openNanos;
    this.nanoTime = nanoTime;
  }

  public CircuitBreaker(int failureThreshold, long openNanos) {
    this(failureThreshold, openNanos, System::nanoTime);
  }

  public Permit tryAcquire() {
    if (!open) {
      return Permit.NORMAL;
    }
    if (nanoTime.getAsLong() - openUntil < 0) {
      return Permit.REJECTED;
    }
    return probeInFlight.compareAndSet(false, true) ? Permit.PROBE : Permit.REJECTED;
  }

  public void onSuccess(Permit permit) {
    consecutiveFailures.set(0);
    if (open) {
      open = false;
    }
    if (permit == Permit.PROBE) {
      probeInFlight.set(false);
    }
  }

  public void onFailure(Permit permit) {
    if (permit == Permit.PROBE) {
      trip();
      probeInFlight.set(false);
    } else if (consecutiveFailures.incrementAndGet() >= failureThreshold && !open) {
      trip();
    }
  }

  /** Opens now, whatever the count: the backend is known to be unreachable. */
  public void open() {
    trip();
  }

  /** Closes now: the backend is known to answer again (a connection was made). */
  public void close() {
    consecutiveFailures.set(0);
    open = false;
  }

  private void trip() {
    openUntil = nanoTime.getAsLong() + openNanos;
    if (!open) {
      openings.incrementAndGet();
    }
    open = true;
  }

  /** How many times it went from closed to open (for tests and diagnostics). */
  public long timesOpened() {
    return openings.get();
  }

  /** Nanoseconds until the next probe may go; 0 when closed or due. */
  public long remainingOpenNanos() {
    if (!open) {
      return 0;
    }
    return Math.max(0, openUntil - nanoTime.getAsLong());
  }

  public State state() {
    if (!open) {
      return State.CLOSED;
    }
    return nanoTime.getAsLong() - openUntil < 0 ? State.OPEN : State.HALF_OPEN;
  }
}
