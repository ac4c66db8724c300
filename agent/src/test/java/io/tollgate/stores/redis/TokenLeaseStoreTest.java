package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.testing.StandardErrorCapture;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code lease-tokens: N} on a real Redis of the test's own, with the test's clock as Redis's (the
 * script's time override): a hot key costs one round trip per N requests, the next lease taken
 * ahead while the last one's tokens are spent, a cold key is not leased, instances leasing from one
 * bucket stay within N + N/2 - 1 tokens each of what a round trip per request decides (checked
 * after every request against a plain store fed the same traffic), and a lease taken ahead that is
 * refused, late or lost adds nothing and holds no request past the timeout.
 */
@ExtendWith(RedisServerExtension.class)
class TokenLeaseStoreTest {

  @RegisterExtension final StandardErrorCapture err = new StandardErrorCapture();

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final int N = 10;

  private final ManualClock clock = ManualClock.atEpochMillis(System.currentTimeMillis());

  @Test
  void aHotKeyCostsOneRoundTripPerLeaseWithTheSameAnswers(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(10_000, SECOND, 10_000);
      TokenLeaseStore leased = new TokenLeaseStore(redisStore(backend, spec), clock, N, 1_000);
      RedisGcraStore exact = redisStore(backend, spec);
      Verdict withLease = new Verdict();
      Verdict reference = new Verdict();
      exact.decide("warm-up", 1, reference); // loads the script (NOSCRIPT, then EVAL) first
      long calls = RefusalCacheStoreTest.scriptCalls(server);
      for (int i = 0; i < 1_000; i++) {
        leased.decide("hot", 1, withLease);
        exact.decide("hot", 1, reference);
        assertTrue(withLease.allowed, "request " + i);
        assertEquals(reference.remaining, withLease.remaining, "remaining after request " + i);
      }
      long leasedCalls = RefusalCacheStoreTest.scriptCalls(server) - calls - 1_000;
      assertEquals(leased.passedOn() + leased.leasesAhead(), leasedCalls,
          "one script call per request passed on or lease taken ahead, none other");
      // The key is cold for its first N - 1 requests (a token each); the N-th takes the first
      // lease in its own round trip and keeps N - 1 tokens; a lease is asked for ahead each time a
      // request leaves fewer than N/2 held: after 5 + 10k of the other 990 requests, k = 0..98.
      assertEquals(N, leased.passedOn(), "requests that went to Redis themselves");
      assertEquals(99, leased.leasesAhead(), "leases taken ahead");
      assertEquals(1_000, leased.passedOn() + leased.grantedLocally());
    }
  }

  /**
   * Eight threads on one hot key: while a lease is on its way, the requests that find no token wait
   * for it instead of asking Redis for a token each (as they did before leases were taken ahead),
   * so 4000 requests cost about one round trip per N of them.
   */
  @Test
  void aHotKeyOnEightThreadsCostsAboutOneRoundTripPerLease(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RedisGcraStore shared = redisStore(backend, new LimitSpec(1_000_000, SECOND, 1_000_000));
      TokenLeaseStore leased = new TokenLeaseStore(shared, clock, N, 1_000);
      shared.decide("warm-up", 1, new Verdict()); // loads the script (NOSCRIPT, then EVAL) first
      long calls = RefusalCacheStoreTest.scriptCalls(server);
      assertEquals(4_000, allowedOnThreads(leased, 8, 500), "all allowed");
      long asked = leased.passedOn() + leased.leasesAhead();
      // The last lease taken ahead may still be on its way when the calls are counted.
      awaitTrue(() -> RefusalCacheStoreTest.scriptCalls(server) - calls == asked,
          "every request passed on and every lease taken ahead is one call, none other");
      long leasedCalls = asked;
      // N - 1 requests while the key is cold, 4000 / N leases and one more taken ahead; the
      // requests that came in the same instant as the key turned hot may have found no lease yet.
      assertTrue(leasedCalls <= N - 1 + 4_000 / N + 1 + 8,
          "round trips for 4000 requests: " + leasedCalls + " (" + leased.passedOn()
              + " passed on, " + leased.leasesAhead() + " leases ahead, "
              + leased.waitedForLease() + " requests waited for a lease)");
      assertEquals(0, leased.lateLeases(), "no lease came later than the 5 s timeout");
    }
  }

  /**
   * Two instances on one bucket (burst 60, the clock still): each takes its first lease, then
   * leases ahead until one, asked for on Redis's last figure, finds the other has taken the
   * tokens it counted on: refused, it adds nothing, and the requests after it go to Redis one by
   * one again. Together they admit exactly the burst: no token lost, none counted twice.
   */
  @Test
  void aLeaseTakenAheadAndRefusedAddsNothing(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RedisGcraStore shared = redisStore(backend, new LimitSpec(60, TimeUnit.DAYS.toNanos(1), 60));
      TokenLeaseStore a = new TokenLeaseStore(shared, clock, N, 1_000);
      TokenLeaseStore b = new TokenLeaseStore(shared, clock, N, 1_000);
      Verdict verdict = new Verdict();
      int allowed = 0;
      for (int i = 0; i < 200; i++) {
        (i % 2 == 0 ? a : b).decide("k", 1, verdict);
        allowed += verdict.allowed ? 1 : 0;
      }
      assertEquals(60, allowed, "exactly the burst, across both instances");
      // 2 x (N - 1) cold requests and two first leases take 38 of the 60; two leases ahead take 20
      // more: any lease asked for after them found 2 tokens, and was refused.
      assertTrue(a.leasesAhead() + b.leasesAhead() > 2,
          "a lease ahead was refused: " + a.leasesAhead() + " + " + b.leasesAhead() + " asked");
      assertTrue(a.grantedLocally() + b.grantedLocally() > 0);
    }
  }

  /**
   * Redis frozen (SIGSTOP) while a lease taken ahead is on its way: the tokens held are spent,
   * then a request that finds none waits for the lease up to the backend's timeout and is given
   * up as a call not sent ({@link RedisFailure#BUSY}), as are those after it while the lease is
   * late, without waiting; through the rule's failure policy they are decided by the local share,
   * even under {@code on-failure: allow}. When Redis answers, the lease's tokens are added once,
   * and the requests are decided as before: over the whole run the store admits exactly the burst.
   */
  @Test
  void aLateLeaseIsWaitedForUpToTheTimeoutThenDecidedByTheShare(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server, Duration.ofMillis(500))) {
      RedisGcraStore shared =
          redisStore(backend, new LimitSpec(1_000, TimeUnit.DAYS.toNanos(1), 1_000));
      TokenLeaseStore leased = new TokenLeaseStore(shared, clock, N, 1_000);
      Verdict verdict = new Verdict();
      int allowed = 0;
      for (int i = 0; i < N; i++) {
        leased.decide("k", 1, verdict); // N - 1 cold, then the first lease: N - 1 tokens held
        allowed += verdict.allowed ? 1 : 0;
      }
      server.pause();
      try {
        for (int i = 0; i < N - 1; i++) {
          leased.decide("k", 1, verdict); // the 5th asks for the next lease: it is not answered
          assertTrue(verdict.allowed, "held token " + i);
          allowed++;
        }
        assertEquals(1, leased.leasesAhead());
        for (int i = 0; i < 3; i++) {
          BackendUnavailableException late =
              assertThrows(BackendUnavailableException.class, () -> leased.decide("k", 1, verdict));
          assertEquals(RedisFailure.BUSY, late.kind(), late.getMessage());
        }
        assertEquals(3, leased.lateLeases(), "each waited, at most until the timeout");
        assertEquals(1, err.agentLines().stream()
                .filter(line -> line.contains("a lease of " + N + " tokens has had no reply"))
                .count(),
            "said once (a minute), naming the rule: " + err.agentLines());
        FailurePolicyStore allowPolicy =
            new FailurePolicyStore(shared, leased, OnFailure.ALLOW, () -> 1, clock, 1_000);
        assertEquals(DecisionSource.DEGRADED_LOCAL, allowPolicy.decideWithSource("k", 1, verdict),
            "decided by the local share, not let through by on-failure: allow");
      } finally {
        server.resume();
      }
      awaitTrue(() -> {
        try {
          leased.decide("k", 1, verdict);
        } catch (BackendUnavailableException stillLate) {
          return false;
        }
        return true;
      }, "the late lease comes back");
      allowed += verdict.allowed ? 1 : 0;
      for (int i = 0; i < 1_100; i++) {
        try {
          leased.decide("k", 1, verdict);
          allowed += verdict.allowed ? 1 : 0;
        } catch (BackendUnavailableException late) {
          // A lease later than the timeout on a busy machine: this request was not sent.
          assertEquals(RedisFailure.BUSY, late.kind(), late.getMessage());
        }
      }
      // The share's one request was charged to nothing here (no policy store owes it to Redis):
      // the store alone admitted the burst exactly, the late lease's tokens once.
      assertEquals(1_000, allowed, "the burst, the late lease counted once");
    }
  }

  /**
   * A lease taken ahead that fails (an error reply: the key made a string behind the script's
   * back) adds nothing: once the tokens held are spent, the requests go to Redis themselves and
   * fail as any call does; with the key repaired they are decided there again.
   */
  @Test
  void aLeaseAheadThatFailsAddsNothing(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RedisGcraStore shared =
          redisStore(backend, new LimitSpec(1_000, TimeUnit.DAYS.toNanos(1), 1_000));
      TokenLeaseStore leased = new TokenLeaseStore(shared, clock, N, 1_000);
      Verdict verdict = new Verdict();
      for (int i = 0; i < N; i++) {
        leased.decide("k", 1, verdict); // N - 1 tokens held after this
      }
      server.call("SET", shared.keyOf("k"), "not a bucket");
      for (int i = 0; i < N - 1; i++) {
        leased.decide("k", 1, verdict); // the 5th asks for the next lease: an error reply
        assertTrue(verdict.allowed, "held token " + i);
      }
      assertEquals(1, leased.leasesAhead());
      BackendUnavailableException failed =
          assertThrows(BackendUnavailableException.class, () -> leased.decide("k", 1, verdict));
      assertEquals(RedisFailure.RULE_ERROR, failed.kind(), "a call of its own: " + failed);
      assertEquals(N - 1, leased.grantedLocally(), "only the first lease's tokens");
      server.call("DEL", shared.keyOf("k"));
      leased.decide("k", 1, verdict);
      assertTrue(verdict.allowed, "decided on Redis again");
    }
  }

  @Test
  void coldKeysAndOtherCostsAreNotLeased(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(100, SECOND, 100);
      TokenLeaseStore leased = new TokenLeaseStore(redisStore(backend, spec), clock, N, 1_000);
      Verdict verdict = new Verdict();
      for (int i = 0; i < 200; i++) {
        leased.decide("cold-" + i, 1, verdict);
        assertEquals(99, verdict.remaining, "one token taken, not a lease");
        clock.advanceNanos(SECOND / 100);
      }
      for (int i = 0; i < 50; i++) {
        leased.decide("dear", 2, verdict);
      }
      assertEquals(0, leased.grantedLocally());
      assertEquals(250, leased.passedOn());
    }
  }

  @Test
  void nearTheLimitEveryRequestIsOneRoundTrip(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      RedisGcraStore shared = redisStore(backend, new LimitSpec(25, SECOND, 25));
      TokenLeaseStore leased = new TokenLeaseStore(shared, clock, N, 1_000);
      Verdict verdict = new Verdict();
      shared.decide("warm-up", 1, verdict); // loads the script (NOSCRIPT, then EVAL) first
      long calls = RefusalCacheStoreTest.scriptCalls(server);
      int allowed = 0;
      for (int i = 0; i < 60; i++) {
        leased.decide("k", 1, verdict);
        allowed += verdict.allowed ? 1 : 0;
      }
      assertEquals(25, allowed, "exactly the burst, however it was taken");
      assertEquals(leased.passedOn(), RefusalCacheStoreTest.scriptCalls(server) - calls,
          "no request needed two round trips");
      assertTrue(leased.grantedLocally() > 0, "leases were used: " + leased.grantedLocally());
    }
  }

  @Test
  void concurrentRequestsGetExactlyTheBurst(@PrivateRedis RedisServer server) throws Exception {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      TokenLeaseStore leased =
          new TokenLeaseStore(
              redisStore(backend, new LimitSpec(1_000, TimeUnit.DAYS.toNanos(1), 1_000)), clock, N,
              1_000);
      assertEquals(1_000, allowedOnThreads(leased, 8, 500),
          "4000 requests on 8 threads, burst 1000, the clock still");
      assertTrue(leased.grantedLocally() > 0, "leases were used: " + leased.grantedLocally());
    }
  }

  /** Requests of key "hot" on {@code threads} threads, {@code each} on each: how many allowed. */
  private static int allowedOnThreads(TokenLeaseStore store, int threads, int each)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Callable<Integer>> work = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        work.add(
            () -> {
              Verdict verdict = new Verdict();
              int allowed = 0;
              for (int i = 0; i < each; i++) {
                store.decide("hot", 1, verdict);
                allowed += verdict.allowed ? 1 : 0;
              }
              return allowed;
            });
      }
      int allowed = 0;
      for (Future<Integer> result : pool.invokeAll(work)) {
        allowed += result.get();
      }
      return allowed;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Three instances leasing from one bucket (1000/s, burst 200), with traffic above and below the
   * rate, checked after every request against the documented bound: every request they allowed
   * also fits a bucket whose burst is larger by 3 x H, H = N + N/2 - 1 (the tokens each may hold,
   * a lease taken ahead on top of fewer than N/2 left: they never admit more), and together they
   * have allowed at least what a plain store fed the same requests allowed, less 3 x H (the tokens
   * held unused).
   */
  @Test
  void threeInstancesStayWithinTheirLeasesOfTheExactCount(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server)) {
      LimitSpec spec = new LimitSpec(1_000, SECOND, 200);
      int held = 3 * (N + (N + 1) / 2 - 1);
      RedisGcraStore shared = redisStore(backend, spec);
      TokenLeaseStore[] instances = new TokenLeaseStore[3];
      for (int i = 0; i < 3; i++) {
        instances[i] = new TokenLeaseStore(shared, clock, N, 1_000);
      }
      RedisGcraStore exact = redisStore(backend, spec);
      LocalLimiterStore<TokenBucket.State> bound =
          new LocalLimiterStore<>(
              new TokenBucket(new LimitSpec(1_000, SECOND, 200 + held)), clock, 10);
      Verdict withLease = new Verdict();
      Verdict reference = new Verdict();
      Verdict withinBound = new Verdict();
      Random random = new Random(7);
      long allowedLeased = 0;
      long allowedExact = 0;
      long mostBehind = 0;
      for (int i = 0; i < 20_000; i++) {
        // Bursts above the rate and quiet spells below it, so the bucket empties and fills.
        long gapMicros = (i / 2_000) % 2 == 0 ? random.nextInt(800) : random.nextInt(3_000);
        clock.advanceNanos(TimeUnit.MICROSECONDS.toNanos(gapMicros));
        instances[random.nextInt(3)].decide("hot", 1, withLease);
        exact.decide("hot", 1, reference);
        allowedLeased += withLease.allowed ? 1 : 0;
        allowedExact += reference.allowed ? 1 : 0;
        if (withLease.allowed) {
          bound.decide("hot", 1, withinBound);
          assertTrue(withinBound.allowed,
              "request " + i + " allowed beyond a burst of 200 + " + held);
        }
        mostBehind = Math.max(mostBehind, allowedExact - allowedLeased);
        assertTrue(allowedLeased >= allowedExact - held,
            "after request " + i + ": leased " + allowedLeased + ", exact " + allowedExact);
      }
      long local = 0;
      long ahead = 0;
      long waited = 0;
      for (TokenLeaseStore instance : instances) {
        local += instance.grantedLocally();
        ahead += instance.leasesAhead();
        waited += instance.waitedForLease();
      }
      System.out.println("leases: allowed " + allowedLeased + " (exact " + allowedExact
          + "), at most " + mostBehind + " behind, granted locally " + local + " of 20000, "
          + ahead + " leases ahead, " + waited + " requests waited for one");
      assertTrue(local > 2_000, "leases were used: " + local);
      assertTrue(allowedExact < 19_000 && allowedExact > 5_000,
          "traffic both above and below the limit: " + allowedExact);
    }
  }

  /** A sequence of requests on a leasing store, with what it may do to Redis and the clock. */
  interface Sequence {
    void run(TokenLeaseStore store, RedisGcraStore shared, RedisServer server, ManualClock clock);
  }

  /**
   * The counters {@code status} and the metrics show, after a known sequence (N = 10, a bucket of
   * 1000 a day, the clock still unless the sequence moves it): requests allowed from a lease or
   * decided by Redis, leases granted and taken ahead, tokens leased, given up unused and leases
   * lost, requests that waited for a lease and those the share decided.
   */
  static Stream<Arguments> sequences() {
    return Stream.of(
        // sequence, what it does,
        //   by Redis, from a lease, leases, ahead, tokens leased, unused, lost, waited, by share
        Arguments.of("a cold key: 5 requests", (Sequence) (store, shared, server, clock) -> {
          requests(store, "k", 5);
        }, new long[] {5, 0, 0, 0, 0, 0, 0, 0, 0}),
        Arguments.of("cost 2: 12 requests, never leased", (Sequence) (store, shared, server, clock) -> {
          for (int i = 0; i < 12; i++) {
            store.decide("k", 2, new Verdict());
          }
        }, new long[] {12, 0, 0, 0, 0, 0, 0, 0, 0}),
        Arguments.of("N requests: the N-th takes the first lease, keeps N - 1",
            (Sequence) (store, shared, server, clock) -> requests(store, "k", N),
            new long[] {10, 0, 1, 0, 9, 0, 0, 0, 0}),
        Arguments.of("N + 5: the 5th from the lease leaves 4 and asks for the next ahead",
            (Sequence) (store, shared, server, clock) -> {
              requests(store, "k", N + 5);
              awaitTrue(() -> store.counters().leases() == 2, "the lease ahead arrives");
            }, new long[] {10, 5, 2, 1, 19, 0, 0, 0, 0}),
        Arguments.of("N, then one a second later: the 9 held expire unused, a new lease",
            (Sequence) (store, shared, server, clock) -> {
              requests(store, "k", N);
              clock.advanceNanos(SECOND);
              requests(store, "k", 1);
            }, new long[] {11, 0, 2, 0, 18, 9, 0, 0, 0}),
        Arguments.of("N + N - 1, the lease taken ahead failing (an error reply): lost",
            (Sequence) (store, shared, server, clock) -> {
              requests(store, "k", N);
              server.call("SET", shared.keyOf("k"), "not a bucket");
              requests(store, "k", N - 1);
              awaitTrue(() -> store.counters().leasesLost() == 1, "the lease ahead fails");
            }, new long[] {10, 9, 1, 1, 9, 0, 1, 0, 0}),
        Arguments.of("N + N - 1 + 3, Redis frozen: the lease ahead late, 3 decided by the share",
            (Sequence) (store, shared, server, clock) -> {
              requests(store, "k", N);
              server.pause();
              try {
                requests(store, "k", N - 1);
                for (int i = 0; i < 3; i++) {
                  assertThrows(BackendUnavailableException.class,
                      () -> store.decide("k", 1, new Verdict()));
                }
              } finally {
                server.resume();
              }
              awaitTrue(() -> store.counters().leases() == 2, "the late lease arrives");
            }, new long[] {10, 9, 2, 1, 19, 0, 0, 3, 3}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sequences")
  void theCountersSayWhatTheLeasesDid(String name, Sequence sequence, long[] expected,
      @PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connect(server, Duration.ofMillis(500))) {
      RedisGcraStore shared =
          redisStore(backend, new LimitSpec(1_000, TimeUnit.DAYS.toNanos(1), 1_000));
      LeaseCounters counters = new LeaseCounters();
      TokenLeaseStore store = new TokenLeaseStore(shared, clock, N, 1_000, counters);
      sequence.run(store, shared, server, clock);
      long[] counted = {
        counters.decidedByRedis(), counters.allowedFromLease(), counters.leases(),
        counters.leasesAhead(), counters.tokensLeased(), counters.tokensUnused(),
        counters.leasesLost(), counters.waitedForLease(), counters.decidedByShare()
      };
      assertEquals(Arrays.toString(expected), Arrays.toString(counted),
          "by Redis, from a lease, leases, ahead, tokens leased, unused, lost, waited, by share");
    }
  }

  private static void requests(TokenLeaseStore store, String key, int n) {
    Verdict verdict = new Verdict();
    for (int i = 0; i < n; i++) {
      store.decide(key, 1, verdict);
      assertTrue(verdict.allowed, key + " request " + i);
    }
  }

  private RedisGcraStore redisStore(RedisBackend backend, LimitSpec spec) {
    return new RedisGcraStore(
        backend, RedisTestSupport.uniqueRule("lease"), new TokenBucket(spec), clock);
  }
}
