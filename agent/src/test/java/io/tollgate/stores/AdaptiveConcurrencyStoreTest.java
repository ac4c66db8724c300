package io.tollgate.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AdaptiveConcurrency;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * adaptive-concurrency in the local store, with real threads: never more in flight than the
 * limit, every permit given back, and {@code max-wait}'s queue (bounded, woken on release, never
 * longer than max-wait nor the request's hold).
 */
class AdaptiveConcurrencyStoreTest {

  private static final long MS = 1_000_000L;
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
  }

  private static LocalLimiterStore<AdaptiveConcurrency.State> store(
      AdaptiveConcurrency algorithm) {
    return new LocalLimiterStore<>(algorithm, Clock.system(), 1_000);
  }

  /** Many threads acquire and complete: in flight never over the limit, none leaked. */
  private void stress(AdaptiveConcurrency algorithm, int ceiling) throws Exception {
    LocalLimiterStore<AdaptiveConcurrency.State> store = store(algorithm);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    AtomicLong allowed = new AtomicLong();
    int threads = 16;
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      done.add(pool.submit(() -> {
        Verdict v = new Verdict();
        for (int i = 0; i < 3_000; i++) {
          store.decide("global", 1, v);
          if (!v.allowed) {
            continue;
          }
          int now = inFlight.incrementAndGet();
          highest.accumulateAndGet(now, Math::max);
          allowed.incrementAndGet();
          inFlight.decrementAndGet();
          // every seventh fails; latency grows with the thread's id
          store.complete("global", 1, (1 + id) * MS, i % 7 == 0);
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get(120, TimeUnit.SECONDS);
    }
    assertTrue(highest.get() <= ceiling, "in flight " + highest.get() + " <= " + ceiling);
    assertTrue(allowed.get() > 0);
    assertEquals(0, algorithm.shownState().inFlight(), "every permit given back");
    assertEquals(0, algorithm.shownState().waiters());
  }

  @Test
  void manyThreadsNeverExceedAFixedLimitAndLeakNothing() throws Exception {
    stress(new AdaptiveConcurrency(3, 3, 3, 0, false, null), 3);
  }

  @Test
  void manyThreadsNeverExceedMaxWhileTheLimitMovesAndLeakNothing() throws Exception {
    stress(new AdaptiveConcurrency(1, 2, 5, 0, false, null), 5);
  }

  @Test
  void manyThreadsWaitingForPermitsNeverExceedTheLimitAndLeakNothing() throws Exception {
    stress(new AdaptiveConcurrency(2, 2, 2, 50 * MS, false, null), 2);
  }

  /** Waits until {@code condition} holds, failing after a minute. */
  private static void await(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("waited a minute for: " + what);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void aWaitingRequestIsWokenWhenAPermitComesBack() throws Exception {
    AdaptiveConcurrency algorithm = new AdaptiveConcurrency(1, 1, 1, 10_000 * MS, false, null);
    LocalLimiterStore<AdaptiveConcurrency.State> store = store(algorithm);
    Verdict first = new Verdict();
    store.decide("k", 1, first);
    assertTrue(first.allowed);
    Future<Verdict> waiting = pool.submit(() -> {
      Verdict v = new Verdict();
      store.decide("k", 1, v);
      return v;
    });
    await("the second request waits", () -> algorithm.shownState().waiters() == 1);
    // the queue is as long as the limit: a third request is refused at once, while the second
    // still waits (had the third waited its max-wait, the second, queued first, would be done)
    Verdict third = new Verdict();
    store.decide("k", 1, third);
    assertFalse(third.allowed, "the queue is full");
    assertFalse(waiting.isDone(), "refused without waiting max-wait");
    assertEquals(1, algorithm.shownState().waiters());
    store.complete("k", 1, 5 * MS, false);
    Verdict woken = waiting.get(1, TimeUnit.MINUTES);
    assertTrue(woken.allowed, "woken by the permit given back: " + woken);
    assertEquals(1, algorithm.shownState().inFlight());
    assertEquals(0, algorithm.shownState().waiters());
    store.release("k", 1);
    assertEquals(0, algorithm.shownState().inFlight());
  }

  @Test
  void aWaitingRequestIsRefusedAfterMaxWait() throws Exception {
    AdaptiveConcurrency algorithm = new AdaptiveConcurrency(1, 1, 1, 200 * MS, false, null);
    LocalLimiterStore<AdaptiveConcurrency.State> store = store(algorithm);
    Verdict v = new Verdict();
    store.decide("k", 1, v);
    long start = System.nanoTime();
    store.decide("k", 1, v);
    long waited = System.nanoTime() - start;
    assertFalse(v.allowed);
    assertTrue(waited >= 200 * MS, "waited max-wait: " + waited / MS + " ms");
    assertEquals(0, algorithm.shownState().waiters());
    assertEquals(1, algorithm.shownState().inFlight(), "the refused request took nothing");
  }

  @Test
  void aWaitingRequestIsNeverHeldPastTheAgentsHold() throws Exception {
    // two permits, both held, and a request waiting its whole max-wait beside the one tested:
    // had the tested request waited its max-wait too, the other, queued first, would be done
    AdaptiveConcurrency algorithm = new AdaptiveConcurrency(2, 2, 2, 10_000 * MS, false, null);
    LocalLimiterStore<AdaptiveConcurrency.State> store = store(algorithm);
    Verdict v = new Verdict();
    store.decide("k", 1, v);
    store.decide("k", 1, v);
    Future<Verdict> waiting = pool.submit(() -> {
      Verdict w = new Verdict();
      store.decide("k", 1, w);
      return w;
    });
    await("a request waits its max-wait", () -> algorithm.shownState().waiters() == 1);

    store.decide("k", 1, v, System.nanoTime() + 100 * MS);
    assertFalse(v.allowed);
    assertFalse(waiting.isDone(), "cut to the hold left, not max-wait's 10 s");
    // a request already held to its limit does not wait at all
    store.decide("k", 1, v, System.nanoTime() - 1);
    assertFalse(v.allowed);
    assertFalse(waiting.isDone(), "not waited either");
    assertEquals(1, algorithm.shownState().waiters());

    store.release("k", 1);
    assertTrue(waiting.get(1, TimeUnit.MINUTES).allowed, "the one waiting gets the permit");
  }

  @Test
  void waitersAreServedBeforeRequestsArrivingLater() throws Exception {
    AdaptiveConcurrency algorithm = new AdaptiveConcurrency(2, 2, 2, 10_000 * MS, false, null);
    LocalLimiterStore<AdaptiveConcurrency.State> store = store(algorithm);
    Verdict v = new Verdict();
    store.decide("k", 1, v);
    store.decide("k", 1, v);
    Future<Verdict> waiting = pool.submit(() -> {
      Verdict w = new Verdict();
      store.decide("k", 1, w);
      return w;
    });
    await("one waits", () -> algorithm.shownState().waiters() == 1);
    // a permit comes back, and a new request arrives at once: it does not overtake the waiter
    store.release("k", 1);
    Verdict late = new Verdict();
    store.decide("k", 1, late, System.nanoTime() + 100 * MS);
    assertFalse(late.allowed, "the late request is not served first");
    assertTrue(waiting.get(1, TimeUnit.MINUTES).allowed, "the waiter gets the permit");
    assertEquals(2, algorithm.shownState().inFlight());
  }
}
