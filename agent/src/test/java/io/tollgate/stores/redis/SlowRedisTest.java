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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Slow is not down: a live Redis whose replies come later than {@code max-wait} (a delaying proxy
 * on loopback, or the server frozen by {@code kill -STOP}) is decided by each rule's local share,
 * whatever its {@code on-failure}; a bulkhead bounds the request threads that wait for it; and the
 * late calls are never cancelled, so their counts land on Redis once it answers. Default settings
 * ({@code timeout} 50 ms, {@code max-wait} 1 s) unless a case says otherwise. No timed assertions:
 * every wait is for a condition.
 */
@ExtendWith(RedisServerExtension.class)
class SlowRedisTest {

  private static final int LIMIT = 20;
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final int THREADS = 12;
  private static final int DECISIONS = 240;

  /** How Redis is slow: every reply held back by the proxy, or the server frozen. */
  enum Slowness {
    REPLIES_2S_LATE,
    REPLIES_10S_LATE,
    KILL_STOP
  }

  @ParameterizedTest(name = "{0}, on-failure {1}: at most 1.05 x the limit, no 503")
  @CsvSource({
    "REPLIES_2S_LATE,  ALLOW",
    "REPLIES_2S_LATE,  DENY",
    "REPLIES_2S_LATE,  LOCAL",
    "REPLIES_10S_LATE, ALLOW",
    "REPLIES_10S_LATE, DENY",
    "KILL_STOP,        ALLOW",
    "KILL_STOP,        DENY",
    "KILL_STOP,        LOCAL",
  })
  void aLateRedisIsDecidedByTheLocalShareWhateverOnFailureSays(
      Slowness slowness, OnFailure policy, @PrivateRedis RedisServer server) throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisBackend.connect(RedisConnectionSettings.uri(proxy.uri()))) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      FailurePolicyStore store = policyStore(backend, policy);
      Verdict warm = new Verdict();
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("warm", 1, warm));

      slowDown(slowness, proxy, server);
      Counts counts;
      try {
        counts = flood(store, "k", DECISIONS);
      } finally {
        speedUp(slowness, proxy, server);
      }

      assertTrue(counts.admitted <= LIMIT * 105 / 100, counts + ": at most 1.05 x the limit");
      assertEquals(0, counts.failClosed, counts + ": deny refuses nobody within its share");
      assertEquals(0, counts.failOpen, counts + ": allow never switches the limit off");
      assertEquals(LIMIT, counts.admitted, counts + ": the share is the limit (one instance)");
      // The late calls were not cancelled: once Redis answers them, they have counted there.
      awaitTrue(() -> backend.outstandingCommands() == 0, "every late call answered");
      Verdict after = new Verdict();
      awaitTrue(() -> store.decideWithSource("k", 1, after) == DecisionSource.BACKEND,
          "decided on redis again");
      // (and what the local share allowed of decisions never sent, charged to it before this one)
      assertTrue(after.remaining <= LIMIT - 2,
          "redis counted the late calls sent to it: " + after.remaining + " left of " + LIMIT);
    }
  }

  /**
   * The bulkhead: with {@code max-waiting-threads: 3} and three threads waiting on a late reply,
   * a fourth decision waits no longer than its timeout; then the local share decides.
   */
  @Test
  void pastMaxWaitingThreadsTheLocalShareDecidesAfterTheTimeout(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend =
        RedisBackend.connect(
            RedisConnectionSettings.uri(server.uri())
                .withMaxWait(Duration.ofSeconds(20))
                .withMaxWaitingThreads(3))) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      FailurePolicyStore store = policyStore(backend, OnFailure.DENY);
      server.pause();
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<DecisionSource>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          waiting.add(pool.submit(() -> store.decideWithSource("held", 1, new Verdict())));
        }
        awaitTrue(() -> backend.waitingThreads() == 3, "three threads wait on a late reply");
        int maxSeen = 0;
        for (int i = 0; i < 50; i++) {
          Verdict verdict = new Verdict();
          assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("k", 1, verdict));
          assertEquals(i < LIMIT, verdict.allowed, "decision " + i + " by the local share");
          maxSeen = Math.max(maxSeen, backend.waitingThreads());
        }
        assertEquals(3, maxSeen, "never more than max-waiting-threads wait");
        server.resume();
        for (Future<DecisionSource> f : waiting) {
          assertEquals(DecisionSource.BACKEND, f.get(60, TimeUnit.SECONDS),
              "the waiting threads get redis's answer once it comes");
        }
      } finally {
        server.resume();
        pool.shutdownNow();
      }
    }
  }

  /**
   * Late calls stay outstanding (never cancelled); at 7/8 of the connection's request queue no
   * more are sent, and decisions go to the local share at once, so that Lettuce never refuses a
   * command ("Internal stack size exceeded") and no decision falls to on-failure.
   */
  @Test
  void outstandingCallsAreCappedBelowLettucesQueue(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend =
        RedisBackend.connect(
            RedisConnectionSettings.uri(server.uri())
                .withRequestQueueSize(32)
                .withMaxWaitingThreads(THREADS))) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      FailurePolicyStore store = policyStore(backend, OnFailure.ALLOW);
      server.pause();
      Counts counts;
      try {
        counts = flood(store, "k", DECISIONS);
        assertTrue(backend.outstandingCommands() <= 28,
            backend.outstandingCommands() + " outstanding: at most 7/8 of 32");
      } finally {
        server.resume();
      }
      assertEquals(0, counts.failOpen, counts + ": no decision fell to on-failure");
      assertEquals(LIMIT, counts.admitted, counts.toString());
      awaitTrue(() -> backend.outstandingCommands() == 0, "every late call answered");
    }
  }

  private static final class Counts {
    final AtomicInteger admittedCount = new AtomicInteger();
    final AtomicInteger failOpenCount = new AtomicInteger();
    final AtomicInteger failClosedCount = new AtomicInteger();
    final AtomicInteger localCount = new AtomicInteger();
    int admitted;
    int failOpen;
    int failClosed;

    Counts done() {
      admitted = admittedCount.get();
      failOpen = failOpenCount.get();
      failClosed = failClosedCount.get();
      return this;
    }

    @Override
    public String toString() {
      return "admitted " + admitted + " of limit " + LIMIT + ", allowed by on-failure " + failOpen
          + ", refused by on-failure " + failClosed + ", by the local share " + localCount.get();
    }
  }

  /** {@code total} decisions of {@code key} from {@link #THREADS} threads at once. */
  private static Counts flood(FailurePolicyStore store, String key, int total) throws Exception {
    Counts counts = new Counts();
    AtomicInteger left = new AtomicInteger(total);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(pool.submit(() -> {
          start.await();
          Verdict verdict = new Verdict();
          while (left.getAndDecrement() > 0) {
            DecisionSource source = store.decideWithSource(key, 1, verdict);
            if (verdict.allowed) {
              counts.admittedCount.incrementAndGet();
            }
            if (source == DecisionSource.FAIL_OPEN) {
              counts.failOpenCount.incrementAndGet();
            } else if (source == DecisionSource.FAIL_CLOSED) {
              counts.failClosedCount.incrementAndGet();
            } else if (source == DecisionSource.DEGRADED_LOCAL) {
              counts.localCount.incrementAndGet();
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    return counts.done();
  }

  private static void slowDown(Slowness slowness, FaultyProxy proxy, RedisServer server) {
    switch (slowness) {
      case REPLIES_2S_LATE:
        proxy.delayReplies(2_000);
        break;
      case REPLIES_10S_LATE:
        proxy.delayReplies(10_000);
        break;
      default:
        server.pause();
    }
  }

  private static void speedUp(Slowness slowness, FaultyProxy proxy, RedisServer server) {
    if (slowness == Slowness.KILL_STOP) {
      server.resume();
    } else {
      proxy.delayReplies(0);
    }
  }

  private static FailurePolicyStore policyStore(RedisBackend backend, OnFailure policy) {
    RedisGcraStore redis =
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule("slow"),
            new TokenBucket(LimitSpec.of(LIMIT, HOUR)));
    return new FailurePolicyStore(redis, policy, () -> 1, Clock.system(), 1_000);
  }
}
