package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.FaultyProxy;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The flood-start over-admission of busy batched {@code reload-deny} passes (102-107 of 100,
 * BENCHMARKS.md section 7, h-ledger, h-flight), on a real Redis: one instance reads its replies
 * late but within its {@code timeout} (a starved host, or its decisions queued behind the batch
 * window: the round trip it measures is long), while the other two, answered at once, spend the
 * budget. Its next calls go late, and {@link LateReplyLedger} bet on the {@code remaining} its
 * last answer said, which was one or two of its own (long) round trips old, so "young", and
 * covered {@code instances x its calls in flight}; but in that time the others had spent all of
 * it, many rounds of their own. Redis refused the bets at their replies: 104 of 100, a call per
 * decision and batched. A round is now no longer than the rule's shortest round trip lately
 * ({@link LateReplyLedger#roundsSince}): the late calls are held, and none is admitted.
 *
 * <p>The slow path is a {@link FaultyProxy} holding that instance's replies (600 ms with a
 * {@code timeout} of 1 s, then 2.5 s, {@code max-wait} 3 s, a bulkhead of 1); the others reach
 * Redis through a proxy that holds nothing.
 * Steps, not timings: each waits for the one before to end. No timed assertions: counts only.
 */
@ExtendWith(RedisServerExtension.class)
class CoveredBetOnASlowPathTest {

  private static final int LIMIT = 100;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final int INSTANCES = 3;
  /** The fast instances' threads, each deciding until Redis refuses. */
  private static final int THREADS = 8;
  /**
   * The slow instance's calls at once: one waits past its timeout in the bulkhead
   * ({@code max-waiting-threads: 1}) and gets Redis's reply; the others are decided late, here.
   */
  private static final int LATE_CALLS = 5;

  @ParameterizedTest(name = "batched {0}: the slow instance's late calls admit {1} of {2}")
  @CsvSource({
      // batched, the slow instance's late calls: admitted at most, of
      "false, 0, " + LATE_CALLS,
      "true,  0, " + LATE_CALLS,
  })
  void aRemainingReadOverALongRoundTripDoesNotCoverWhatTheOthersSpentSince(boolean batched,
      int lateAdmittedAtMost, int lateCalls, @PrivateRedis RedisServer server) throws Exception {
    String rule = RedisTestSupport.uniqueRule("slow-path-bet");
    List<RedisBackend> backends = new ArrayList<>();
    try (FaultyProxy fast = new FaultyProxy(server.port());
        FaultyProxy slow = new FaultyProxy(server.port())) {
      List<FailurePolicyStore> stores = new ArrayList<>();
      for (int i = 0; i < INSTANCES; i++) {
        FaultyProxy path = i == INSTANCES - 1 ? slow : fast;
        RedisBackend backend = RedisBackend.connect(
            RedisConnectionSettings.uri(path.uri())
                .withTimeout(Duration.ofSeconds(1))
                .withMaxWait(Duration.ofSeconds(3))
                .withMaxWaitingThreads(path == slow ? 1 : 64),
            batched);
        backends.add(backend);
        assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
        FailurePolicyStore store = new FailurePolicyStore(
            new RedisGcraStore(backend, rule, new TokenBucket(LimitSpec.of(LIMIT, HOUR))),
            OnFailure.DENY, () -> INSTANCES, Clock.system(), 1_000);
        stores.add(store);
        // the script loaded and the connection warm, as in a running app
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("warm", 1, new Verdict()));
      }
      FailurePolicyStore slowInstance = stores.get(INSTANCES - 1);

      // 1. The slow instance's first call answered at once, then its path slows: its second
      // answer in time over a long round trip, 98 left.
      int admitted = 0;
      for (long delay : new long[] {0, 600}) {
        slow.delayReplies(delay);
        Verdict inTime = new Verdict();
        assertEquals(DecisionSource.BACKEND, slowInstance.decideWithSource("k", 1, inTime),
            "the slow instance's call answered in time, " + delay + " ms late");
        assertTrue(inTime.allowed);
        admitted++;
      }

      // 2. The fast instances spend the rest, answered at once, until Redis refuses.
      AtomicInteger byFast = new AtomicInteger();
      ExecutorService pool = Executors.newCachedThreadPool();
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < INSTANCES - 1; i++) {
          FailurePolicyStore store = stores.get(i);
          for (int t = 0; t < THREADS; t++) {
            done.add(pool.submit(() -> {
              while (true) {
                Verdict verdict = new Verdict();
                DecisionSource source = store.decideWithSource("k", 1, verdict);
                if (verdict.allowed) {
                  byFast.incrementAndGet();
                } else if (source == DecisionSource.BACKEND) {
                  return null; // Redis says the budget is spent
                }
              }
            }));
          }
        }
        for (Future<?> f : done) {
          f.get(2, TimeUnit.MINUTES);
        }
        admitted += byFast.get();

        // 3. The slow instance's next calls go late (replies 2.5 s, past its 1 s timeout), while
        // its last answer (99 left) is one or two of its round trips old.
        slow.delayReplies(2500);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger byLate = new AtomicInteger();
        AtomicInteger late = new AtomicInteger();
        List<Future<?>> lateDone = new ArrayList<>();
        for (int t = 0; t < lateCalls; t++) {
          lateDone.add(pool.submit(() -> {
            start.await();
            Verdict verdict = new Verdict();
            DecisionSource source = slowInstance.decideWithSource("k", 1, verdict);
            if (source == DecisionSource.DEGRADED_LOCAL) {
              late.incrementAndGet();
            }
            if (verdict.allowed) {
              byLate.incrementAndGet();
            }
            return null;
          }));
        }
        start.countDown();
        for (Future<?> f : lateDone) {
          f.get(2, TimeUnit.MINUTES);
        }
        admitted += byLate.get();
        String counts = admitted + " admitted of " + LIMIT + ": the fast instances " + byFast
            + ", the slow one's late calls " + byLate + " (" + late + " decided here, late)";
        System.out.println("[slow-path-bet] batched " + batched + ": " + counts);
        assertTrue(late.get() >= lateCalls - 1, counts + ": the calls went late (the case is made)");
        assertTrue(byLate.get() <= lateAdmittedAtMost, counts);
        assertTrue(admitted <= LIMIT, counts + ": at most the limit");
      } finally {
        pool.shutdownNow();
      }
      RedisBackend slowBackend = backends.get(INSTANCES - 1);
      awaitTrue(() -> slowBackend.outstandingCommands() == 0
              && slowInstance.lateReplies().outstanding("k") == 0,
          "every late call answered, and the ledger knows it");
    } finally {
      for (RedisBackend backend : backends) {
        backend.close();
      }
    }
  }
}
