package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Token-bucket decisions that come while the window of calls is in flight go out together in one
 * call ({@link RedisBatcher}), and each is still decided, answered and failed as a call of its own.
 */
@ExtendWith(RedisServerExtension.class)
class RedisBatcherTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  /**
   * 32 threads on 8 keys: fewer calls than decisions, and every decision its own exact answer (on
   * each key the remaining counts are every value from limit - 1 down, each once).
   */
  @Test
  void decisionsThatComeTogetherShareCallsAndEachGetsItsOwnVerdict(
      @PrivateRedis RedisServer server) throws Exception {
    int threads = 32;
    int keys = 8;
    int perThread = 50;
    long limit = 1_000;
    try (RedisBackend backend = RedisTestSupport.connectBatching(server, Duration.ofSeconds(30))) {
      RedisGcraStore store = new RedisGcraStore(backend, RedisTestSupport.uniqueRule("batch"),
          new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
      store.decide("warm", 1, new Verdict());
      server.call("CONFIG", "RESETSTAT");
      ConcurrentHashMap<Integer, Set<Long>> remainingByKey = new ConcurrentHashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int first = t;
          done.add(pool.submit(() -> {
            start.await();
            Verdict verdict = new Verdict();
            for (int i = 0; i < perThread; i++) {
              int key = (first + i) % keys;
              store.decide("client-" + key, 1, verdict);
              assertTrue(verdict.allowed, verdict.toString());
              assertTrue(remainingByKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet())
                  .add(verdict.remaining), "remaining " + verdict.remaining + " twice on " + key);
            }
            return null;
          }));
        }
        start.countDown();
        for (Future<?> f : done) {
          f.get(2, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      int perKey = threads * perThread / keys;
      for (int k = 0; k < keys; k++) {
        Set<Long> expected = new TreeSet<>();
        for (long r = limit - 1; r >= limit - perKey; r--) {
          expected.add(r);
        }
        assertEquals(expected, new TreeSet<>(remainingByKey.get(k)), "key client-" + k);
      }
      long calls = evalshaCalls(server);
      assertTrue(calls < threads * perThread,
          calls + " calls for " + threads * perThread + " decisions: none went out together");
    }
  }

  /** One decision at a time: each goes out at once, a call of its own; nothing waits for company. */
  @Test
  void aLoneDecisionGoesOutAtOnceAsACallOfItsOwn(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = RedisTestSupport.connectBatching(server, Duration.ofSeconds(30))) {
      RedisGcraStore store = new RedisGcraStore(backend, RedisTestSupport.uniqueRule("alone"),
          new TokenBucket(LimitSpec.of(5, TEN_DAYS)));
      store.decide("warm", 1, new Verdict());
      server.call("CONFIG", "RESETSTAT");
      Verdict verdict = new Verdict();
      for (int i = 0; i < 8; i++) {
        store.decide("k", 1, verdict);
        assertEquals(i < 5, verdict.allowed, "decision " + i);
      }
      assertEquals(8, evalshaCalls(server));
    }
  }

  /**
   * Redis frozen: the first {@link RedisBackend#BATCH_WINDOW} decisions go out at once, each a
   * call of its own (the window); the ones that come while those are in flight wait, and go out
   * together in one call when the first reply comes. Every one gets its own verdict.
   */
  @Test
  void decisionsBeyondTheWindowWaitAndGoOutTogether(@PrivateRedis RedisServer server)
      throws Exception {
    RedisConnectionSettings settings = RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofSeconds(30))
        .withMaxWait(Duration.ofSeconds(60));
    int window = RedisBackend.BATCH_WINDOW;
    int queued = 5;
    try (RedisBackend backend = RedisBackend.connect(settings, true)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      RedisGcraStore store = new RedisGcraStore(backend, RedisTestSupport.uniqueRule("window"),
          new TokenBucket(LimitSpec.of(100, TEN_DAYS)));
      store.decide("warm", 1, new Verdict());
      long calls = backend.batchCalls();
      long decisions = backend.batchedDecisions();
      server.pause();
      awaitTrue(() -> stopped(server.pid()), "redis-server stopped");
      ExecutorService pool = Executors.newFixedThreadPool(window + queued);
      try {
        List<Future<Verdict>> verdicts = new ArrayList<>();
        for (int t = 0; t < window + queued; t++) {
          int sent = t + 1;
          verdicts.add(pool.submit(() -> {
            Verdict verdict = new Verdict();
            store.decide("k", 1, verdict);
            return verdict;
          }));
          awaitTrue(() -> backend.outstandingCommands() >= sent, "decision " + sent + " taken");
        }
        assertEquals(window, backend.batchCalls() - calls, "calls sent while redis is frozen");
        assertEquals(window, backend.batchedDecisions() - decisions, "decisions sent meanwhile");
        server.resume();
        Set<Long> remaining = new TreeSet<>();
        for (Future<Verdict> verdict : verdicts) {
          Verdict v = verdict.get(1, TimeUnit.MINUTES);
          assertTrue(v.allowed, v.toString());
          remaining.add(v.remaining);
        }
        assertEquals(window + queued, remaining.size(), "each its own remaining count");
        assertEquals(window + 1, backend.batchCalls() - calls, "the queued ones in one call");
        assertEquals(window + queued, backend.batchedDecisions() - decisions);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * Redis late (frozen here), and decisions that come one after another, each once the one
   * before has been decided late (as a flood's request threads do): the window of calls in
   * flight, all late, no longer holds them back; each goes out at once, a call of its own, and
   * is counted on Redis when its reply comes. Before, they waited in the queue until a reply
   * came: on Redis one reply delay later than their requests (the tokens Redis granted them came
   * back after the flood had ended: 70-76 admitted of a limit of 100 with every reply 200 ms
   * late), and at most {@code window x 64} decisions a reply delay, so that under a flood with
   * replies 1 s late the queue grew until the backend's cap on outstanding decisions sent no more
   * (thousands decided with no reply to come; BENCHMARKS.md, section 7, h-batch3).
   */
  @ParameterizedTest(name = "window {0}: {1} decisions while redis is late")
  @CsvSource({
      // window, decisions that come one after another while every call in flight is late
      "1, 6",
      "4, 12",
      "4, 30",
  })
  void decisionsBehindLateCallsAreNotHeldBackByTheWindow(int window, int late,
      @PrivateRedis RedisServer server) {
    RedisConnectionSettings settings = RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofMillis(100))
        .withMaxWait(Duration.ofMillis(300));
    long limit = 1_000;
    try (RedisBackend backend = RedisBackend.connect(settings, window)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      RedisGcraStore store = new RedisGcraStore(backend, RedisTestSupport.uniqueRule("late"),
          new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
      store.decide("k", 1, new Verdict());
      long decisions = backend.batchedDecisions();
      long calls = backend.batchCalls();
      server.pause();
      awaitTrue(() -> stopped(server.pid()), "redis-server stopped");
      for (int i = 1; i <= late; i++) {
        RedisFailure kind = null;
        try {
          store.decide("k", 1, new Verdict());
        } catch (BackendUnavailableException e) {
          kind = e.kind();
        }
        assertTrue(kind == RedisFailure.SLOW || kind == RedisFailure.HUNG,
            "decision " + i + ": " + kind + " (sent, its reply late)");
        assertEquals(i, backend.batchedDecisions() - decisions,
            "decision " + i + " sent, not queued behind " + Math.min(i - 1, window) + " late calls");
      }
      assertEquals(late, backend.batchCalls() - calls, "each a call of its own, past the window");
      server.resume();
      awaitTrue(() -> backend.outstandingCommands() == 0, "the late replies in");
      Verdict after = new Verdict();
      store.decide("k", 1, after);
      assertEquals(limit - 1 - late - 1, after.remaining, "each late decision counted on redis");
    }
  }

  /**
   * Redis frozen with a decision in flight and more queued behind it, then killed: the one sent
   * is decided as a lost call of its own is, each one queued by its own rule's on-failure policy.
   */
  @Test
  void redisKilledUnderABatchEachDecisionFollowsItsPolicy(@PrivateRedis RedisServer server)
      throws Exception {
    RedisConnectionSettings settings = RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofSeconds(5))
        .withMaxWait(Duration.ofSeconds(10))
        .withBreaker(3, Duration.ofMillis(300));
    int threads = 12;
    try (RedisBackend backend = RedisBackend.connect(settings, true)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      TokenBucket bucket = new TokenBucket(LimitSpec.of(100, TEN_DAYS));
      FailurePolicyStore allow = new FailurePolicyStore(new RedisGcraStore(backend,
          RedisTestSupport.uniqueRule("allow"), bucket), OnFailure.ALLOW, () -> 1, Clock.system(),
          1_000);
      FailurePolicyStore deny = new FailurePolicyStore(new RedisGcraStore(backend,
          RedisTestSupport.uniqueRule("deny"), bucket), OnFailure.DENY, () -> 1, Clock.system(),
          1_000);
      Verdict first = new Verdict();
      assertEquals(DecisionSource.BACKEND, allow.decideWithSource("k", 1, first));
      assertEquals(DecisionSource.BACKEND, deny.decideWithSource("k", 1, first));

      awaitTrue(() -> backend.outstandingCommands() == 0, "the first replies counted");
      server.pause();
      awaitTrue(() -> stopped(server.pid()), "redis-server stopped");
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        // The first goes out alone and stays in flight; the others go out alone too while the
        // window has room, then queue behind them.
        Verdict firstVerdict = new Verdict();
        Future<DecisionSource> inFlight =
            pool.submit(() -> allow.decideWithSource("k", 1, firstVerdict));
        awaitTrue(() -> backend.outstandingCommands() >= 1, "the first decision sent");
        List<Future<DecisionSource>> sources = new ArrayList<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (int t = 1; t < threads; t++) {
          FailurePolicyStore store = t % 2 == 0 ? allow : deny;
          Verdict verdict = new Verdict();
          verdicts.add(verdict);
          sources.add(pool.submit(() -> store.decideWithSource("k", 1, verdict)));
        }
        awaitTrue(() -> backend.outstandingCommands() >= threads, "every decision queued");
        // SIGKILL while frozen (RedisServer.kill would let it run on for a moment first).
        long pid = server.pid();
        new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        awaitTrue(() -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "killed");
        server.kill();
        // The one sent: lost with its connection, the rule's local share (RedisFailure.LOST) as
        // for a call of its own, or its policy; those queued behind it, never sent: their own
        // rule's policy, or the local share if they went out into the dying connection. None
        // fails, none waits for another's answer, none is decided by another rule's policy.
        DecisionSource sent = inFlight.get(1, TimeUnit.MINUTES);
        assertTrue(sent == DecisionSource.DEGRADED_LOCAL || sent == DecisionSource.FAIL_OPEN,
            sent.toString());
        assertTrue(firstVerdict.allowed);
        int byPolicy = 0;
        for (int t = 1; t < threads; t++) {
          DecisionSource source = sources.get(t - 1).get(1, TimeUnit.MINUTES);
          Verdict verdict = verdicts.get(t - 1);
          if (source == DecisionSource.DEGRADED_LOCAL) {
            assertTrue(verdict.allowed, "decision " + t + ": the share of 100 has room");
            continue;
          }
          byPolicy++;
          if (t % 2 == 0) {
            assertEquals(DecisionSource.FAIL_OPEN, source, "decision " + t);
            assertTrue(verdict.allowed);
          } else {
            assertEquals(DecisionSource.FAIL_CLOSED, source, "decision " + t);
            assertFalse(verdict.allowed);
          }
        }
        System.out.println("killed under a batch: " + byPolicy + " of " + (threads - 1)
            + " queued decisions by their policy, the first " + sent);
      } finally {
        pool.shutdownNow();
      }
      server.restart();
      Verdict verdict = new Verdict();
      awaitTrue(() -> allow.decideWithSource("k", 1, verdict) == DecisionSource.BACKEND,
          "decisions on redis again after the restart");
    }
  }

  /** The process is stopped (SIGSTOP has taken effect): state T in /proc/PID/stat. */
  private static boolean stopped(long pid) {
    try {
      String stat = new String(java.nio.file.Files.readAllBytes(
          java.nio.file.Paths.get("/proc/" + pid + "/stat")), java.nio.charset.StandardCharsets.UTF_8);
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static long evalshaCalls(RedisServer server) {
    String info = String.valueOf(server.call("INFO", "commandstats"));
    int at = info.indexOf("cmdstat_evalsha:calls=");
    if (at < 0) {
      return 0;
    }
    at += "cmdstat_evalsha:calls=".length();
    int end = info.indexOf(',', at);
    return Long.parseLong(info.substring(at, end));
  }
}
