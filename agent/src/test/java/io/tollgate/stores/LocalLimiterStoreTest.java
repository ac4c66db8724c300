package io.tollgate.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.FixedWindow;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.SlidingLog;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LocalLimiterStoreTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final int THREADS = 8;

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
  private final ManualClock clock = ManualClock.atEpochMillis(1_700_000_040_000L);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** THREADS callers released at once on one key, each asking for one unit; counts the allowed. */
  private int race(LimiterStore store, String key) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    AtomicInteger allowed = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      done.add(
          pool.submit(
              () -> {
                Verdict verdict = new Verdict();
                start.await();
                store.decide(key, 1, verdict);
                if (verdict.allowed) {
                  allowed.incrementAndGet();
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get(30, TimeUnit.SECONDS);
    }
    return allowed.get();
  }

  /**
   * A rule's keys are kept from its first decision on: a file of 10,000 per-tenant rules builds no
   * cache for the tenants that send nothing. Until then every question has the answer of an empty
   * store, and a reload's new store takes it over as it would an empty one.
   */
  @Test
  void aStoreThatNeverDecidedAnswersAsAnEmptyOne() {
    TokenBucket bucket = new TokenBucket(new LimitSpec(2, 3600 * S, 2));
    LocalLimiterStore<?> quiet = new LocalLimiterStore<>(bucket, clock, 100);
    assertEquals(0, quiet.estimatedKeys());
    assertEquals(null, quiet.peek("k"));
    assertEquals(false, quiet.tracks("k"));
    quiet.release("k", 1);
    quiet.complete("k", 1, 1_000_000, false);
    quiet.adjust("k", -1); // a refund on a key it never had: nothing to give back
    quiet.cleanUp();
    assertEquals(false, quiet.tracks("k"), "none of these starts a key");

    LocalLimiterStore<?> reloaded = new LocalLimiterStore<>(bucket, clock, 100);
    reloaded.inheritFrom(quiet);
    Verdict verdict = new Verdict();
    reloaded.decide("k", 1, verdict);
    reloaded.decide("k", 1, verdict);
    assertTrue(verdict.allowed, "a fresh key's two tokens");
    reloaded.decide("k", 1, verdict);
    assertEquals(false, verdict.allowed);
    assertEquals(1, reloaded.estimatedKeys());

    LocalLimiterStore<?> charged = new LocalLimiterStore<>(bucket, clock, 100);
    charged.adjust("k", 1); // a charge after the fact (cost-header) starts the key
    assertTrue(charged.tracks("k"));
  }

  @Test
  void theLastTokenGoesToExactlyOneOfManyConcurrentCallers() throws Exception {
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(new TokenBucket(new LimitSpec(1, 3600 * S, 1)), clock, 10_000);
    for (int round = 0; round < 300; round++) {
      assertEquals(1, race(store, "key-" + round), "round " + round);
    }
  }

  @Test
  void concurrentCallersNeverOvershootAnyAlgorithm() throws Exception {
    LocalLimiterStore<?> window =
        new LocalLimiterStore<>(new FixedWindow(LimitSpec.of(3, 3600 * S)), clock, 10_000);
    LocalLimiterStore<?> log =
        new LocalLimiterStore<>(new SlidingLog(LimitSpec.of(3, 3600 * S)), clock, 10_000);
    LocalLimiterStore<?> bulkhead =
        new LocalLimiterStore<>(new Concurrency(LimitSpec.of(3, S)), clock, 10_000);
    for (int round = 0; round < 100; round++) {
      assertEquals(3, race(window, "key-" + round), "fixed-window round " + round);
      assertEquals(3, race(log, "key-" + round), "sliding-log round " + round);
      assertEquals(3, race(bulkhead, "key-" + round), "concurrency round " + round);
    }
  }

  @Test
  void releaseGivesPermitsBack() {
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(new Concurrency(LimitSpec.of(1, S)), clock, 100);
    Verdict verdict = new Verdict();
    store.decide("k", 1, verdict);
    assertTrue(verdict.allowed);
    store.decide("k", 1, verdict);
    assertEquals(false, verdict.allowed);
    store.release("k", 1);
    store.decide("k", 1, verdict);
    assertTrue(verdict.allowed);
    // releasing an unknown key is harmless
    store.release("never-seen", 1);
  }

  @Test
  void keysAreBoundedByMaxKeys() {
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(new TokenBucket(LimitSpec.of(5, S)), clock, 100);
    Verdict verdict = new Verdict();
    for (int i = 0; i < 5_000; i++) {
      store.decide("key-" + i, 1, verdict);
      assertTrue(verdict.allowed);
    }
    store.cleanUp();
    assertTrue(store.estimatedKeys() <= 100, "keys: " + store.estimatedKeys());
  }

  @Test
  void keysExpireOnceIdleForIdleNanosUntilFresh() {
    TokenBucket bucket = new TokenBucket(LimitSpec.of(5, S));
    long idle = bucket.idleNanosUntilFresh();
    LocalLimiterStore<?> store = new LocalLimiterStore<>(bucket, clock, 100);
    Verdict verdict = new Verdict();
    store.decide("k", 5, verdict);
    assertTrue(verdict.allowed);
    assertEquals(1, store.estimatedKeys());

    clock.advanceNanos(idle - 1);
    store.cleanUp();
    assertEquals(1, store.estimatedKeys(), "still within its idle time");

    // the store keeps time in ticks of about a second, and waits one more to be sure
    clock.advanceNanos(2 + 2 * S);
    store.cleanUp();
    assertEquals(0, store.estimatedKeys(), "forgotten once idle for idleNanosUntilFresh");

    // and forgetting lost nothing: the key decides as a full bucket, as it would have anyway
    store.decide("k", 5, verdict);
    assertTrue(verdict.allowed);
    assertEquals(0, verdict.remaining);
  }

  @Test
  void aDecisionIsAnAccessThatKeepsTheKey() {
    FixedWindow window = new FixedWindow(LimitSpec.of(5, 10 * S));
    LocalLimiterStore<?> store = new LocalLimiterStore<>(window, clock, 100);
    Verdict verdict = new Verdict();
    for (int i = 0; i < 10; i++) {
      store.decide("k", 1, verdict);
      clock.advanceNanos(window.idleNanosUntilFresh() / 2);
      store.cleanUp();
      assertEquals(1, store.estimatedKeys(), "access " + i);
    }
  }

  @Test
  void laterDecisionsForgetIdleKeysWithoutAnyCleanUp() {
    TokenBucket bucket = new TokenBucket(LimitSpec.of(5, S));
    LocalLimiterStore<?> store = new LocalLimiterStore<>(bucket, clock, 10_000);
    Verdict verdict = new Verdict();
    int idleKeys = 10 * LocalLimiterStore.SWEEP_CHUNK;
    for (int i = 0; i < idleKeys; i++) {
      store.decide("idle-" + i, 1, verdict);
    }
    clock.advanceNanos(bucket.idleNanosUntilFresh() + 3 * S);
    // each decision sweeps a few keys, so that no request pays for the whole sweep
    store.decide("active", 1, verdict);
    assertTrue(store.estimatedKeys() > 1, "one decision sweeps only part of the keys");
    for (int i = 0; i < 10; i++) {
      store.decide("active", 1, verdict);
    }
    assertEquals(1, store.estimatedKeys(), "only the active key is left");
    assertTrue(store.tracks("active"));
  }

  @Test
  void aKeyInUseIsNotForgottenWhileOthersAre() {
    TokenBucket bucket = new TokenBucket(LimitSpec.of(5, 3600 * S));
    LocalLimiterStore<?> store = new LocalLimiterStore<>(bucket, clock, 100);
    Verdict verdict = new Verdict();
    store.decide("forgotten", 1, verdict);
    for (int step = 0; step < 10; step++) {
      store.decide("in-use", 1, verdict);
      clock.advanceNanos(bucket.idleNanosUntilFresh() / 4);
    }
    store.cleanUp();
    assertEquals(false, store.tracks("forgotten"), "idle for 2.5 idle periods");
    assertTrue(store.tracks("in-use"), "used a quarter of its idle period ago");
  }

  @Test
  void everyAlgorithmsStateCanBeKept() {
    List<RateLimitAlgorithm<?>> algorithms = new ArrayList<>();
    for (AlgorithmKind kind : AlgorithmKind.values()) {
      algorithms.add(Algorithms.create(kind, LimitSpec.of(5, 60 * S)));
    }
    algorithms.add(Algorithms.calendar(5, CalendarQuota.Unit.DAY, ZoneOffset.UTC));
    algorithms.add(new PenaltyBox(3, 10 * S, 60 * S).guard(new FixedWindow(LimitSpec.of(5, S))));
    for (RateLimitAlgorithm<?> algorithm : algorithms) {
      LocalLimiterStore<?> store = new LocalLimiterStore<>(algorithm, clock, 100);
      Verdict verdict = new Verdict();
      store.decide("k", 1, verdict);
      assertTrue(verdict.allowed, algorithm.getClass().getSimpleName());
      assertTrue(store.tracks("k"), algorithm.getClass().getSimpleName());
    }
  }
}
