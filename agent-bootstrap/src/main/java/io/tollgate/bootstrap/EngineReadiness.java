package io.tollgate.bootstrap;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a request that arrives while the agent is still starting wait for the rules, so that no
 * request passes unlimited for being early.
 *
 * <p>With {@code -javaagent}, the entry points are instrumented from the first class the
 * application loads, but the rules and the engine are set up on the agent's own start-up thread,
 * beside the application's start. The application's classes never wait for it; a request that
 * reaches an entry point before the engine is installed does, in its own thread, for at most
 * {@link #MAX_WAIT_MILLIS}. In practice the engine is ready long before the first request: an
 * application takes seconds to start, the engine a few hundred milliseconds.
 *
 * <p>Should the start hang, the first request to wait the whole bound ends the waiting for every
 * request (they pass unlimited until the engine is installed), with a warning: a stuck agent must
 * not make every request slow.
 */
public final class EngineReadiness {

  /** How long a request waits for the agent's start at most. */
  public static final long MAX_WAIT_MILLIS = 30_000;

  private static volatile CountDownLatch starting;
  /** Non-null while the start waits for the first request ({@link #startAtFirstRequest}). */
  private static volatile CountDownLatch firstRequest;
  /** {@link #MAX_WAIT_MILLIS}; shorter in tests. */
  static volatile long maxWaitMillis = MAX_WAIT_MILLIS;

  private static final Object STATS_LOCK = new Object();
  private static int requestsWaited;
  private static long waitedNanos;

  private EngineReadiness() {}

  /** The agent starts beside the application: requests wait for {@link #ready()} from now on. */
  public static void expect() {
    starting = new CountDownLatch(1);
  }

  /**
   * The start waits until a request reaches an entry point: for an application that sets up
   * {@code java.util.logging} itself, which the engine's start would otherwise do first. The
   * first request then waits for the start, as any early request does. Call after
   * {@link #expect()}.
   */
  public static void startAtFirstRequest() {
    firstRequest = new CountDownLatch(1);
  }

  /** On the start-up thread: returns once a request has reached an entry point, if asked to wait. */
  public static void awaitFirstRequest() throws InterruptedException {
    CountDownLatch latch = firstRequest;
    if (latch != null) {
      latch.await();
    }
  }

  /** The engine is installed, or will never be (the start failed): no request waits any more. */
  public static void ready() {
    CountDownLatch latch = starting;
    starting = null;
    if (latch != null) {
      latch.countDown();
    }
  }

  /** Waits, if the agent is starting, until it is ready; true when it became ready in time. */
  static boolean await() {
    CountDownLatch latch = starting; // before the start may begin, and end, below
    CountDownLatch first = firstRequest;
    if (first != null) {
      firstRequest = null;
      first.countDown();
    }
    if (latch == null) {
      return false;
    }
    long start = System.nanoTime();
    boolean inTime;
    try {
      inTime = latch.await(maxWaitMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    synchronized (STATS_LOCK) {
      requestsWaited++;
      waitedNanos += System.nanoTime() - start;
    }
    if (!inTime && starting == latch) {
      starting = null;
      AgentLogSink.warn("the agent has not finished starting after " + maxWaitMillis
          + " ms; requests pass unlimited until it has");
    }
    return inTime;
  }

  static void resetForTests() {
    synchronized (STATS_LOCK) {
      requestsWaited = 0;
      waitedNanos = 0;
    }
    starting = null;
    firstRequest = null;
    maxWaitMillis = MAX_WAIT_MILLIS;
  }

  /** For the agent's "ready" line: how many requests waited for it, and how long in all. */
  public static String waitSummary() {
    synchronized (STATS_LOCK) {
      if (requestsWaited == 0) {
        return "no request waited for it";
      }
      return requestsWaited + " request(s) waited for it, "
          + TimeUnit.NANOSECONDS.toMillis(waitedNanos) + " ms in all";
    }
  }
}
