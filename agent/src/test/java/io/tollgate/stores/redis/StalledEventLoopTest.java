package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.channel.EventLoop;
import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A reply is late only once this JVM has read what arrived: Redis answers in time while the
 * connection's event loop is kept from running (a task that blocks it, released by the test), as
 * on a host starved of CPU, where the replies wait unread in the socket while the request threads
 * time out (L-6, L-11; BENCHMARKS.md section 7, h-stall). The reply is held back by Redis itself
 * ({@code CLIENT PAUSE WRITE}) until the loop is occupied, so that it arrives while the loop cannot
 * read it. Timeout 1 s (also the bound of the wait for the loop) and max-wait 2 s: far more than
 * the test's own steps take on a busy machine. No timed assertion: every wait is for a condition.
 */
@ExtendWith(RedisServerExtension.class)
class StalledEventLoopTest {

  private static final RedisScript INCR =
      new RedisScript("incr.lua", "return redis.call('INCR', KEYS[1])");
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  private static final Duration MAX_WAIT = Duration.ofSeconds(2);
  /** The bound within which a test releases a loop a request thread waits for. */
  private static final Duration RELEASE_WINDOW = Duration.ofSeconds(5);

  private final ExecutorService requests = Executors.newCachedThreadPool();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseTheLoopAndStop() {
    release.countDown();
    requests.shutdownNow();
  }

  /**
   * On main the thread gave up at max-wait with the reply in its socket (HUNG, shares betting).
   * The test releases the loop while the thread waits for it, within the bound: here 5 s
   * ({@code timeout} = {@code max-wait}), so that a test thread descheduled for a second on a busy
   * machine still releases it in time.
   */
  @Test
  void aReplyWaitingUnreadBehindAStalledLoopDecidesOnceTheLoopRuns(
      @PrivateRedis RedisServer server) throws Exception {
    try (RedisBackend backend = connect(server, RELEASE_WINDOW, RELEASE_WINDOW);
        AutoCloseable loopsFree = release::countDown) {
      String key = RedisTestSupport.uniqueRule("stall");
      assertEquals(Collections.singletonList(1L), backend.eval(INCR, key));

      Future<List<Object>> decision = answeredWhileTheLoopIsStalled(server, backend, key);
      awaitTrue(() -> backend.eventLoops().waiting() > 0 || decision.isDone(),
          "the request thread past max-wait, waiting for the event loop to run");
      release.countDown();

      assertEquals(Collections.singletonList(2L), decision.get(),
          "Redis's reply, read once the loop ran: not a late decision");
    }
  }

  /**
   * A loop kept from running past the bound: the call is late (SLOW), but neither hung nor Redis
   * silent; on main HUNG, and Redis silent for max-wait (the share bets).
   */
  @Test
  void aLoopStalledPastTheBoundDoesNotMakeRedisSilent(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend = connect(server); AutoCloseable loopsFree = release::countDown) {
      String key = RedisTestSupport.uniqueRule("stall");
      backend.eval(INCR, key);

      Future<List<Object>> decision = answeredWhileTheLoopIsStalled(server, backend, key);
      BackendUnavailableException late = lateDecision(decision);
      assertEquals(RedisFailure.SLOW, late.kind(), late.getMessage());
      assertTrue(late.getMessage().contains("event loop did not run"), late.getMessage());
      // Nothing read for max-wait, the call outstanding: on what was read alone, Redis silent.
      assertTrue(backend.answeredWithin(MAX_WAIT.toNanos()),
          "the loop has not run: the silence is this JVM's, not Redis's");

      release.countDown();
      awaitTrue(() -> backend.answeredWithin(MAX_WAIT.toNanos()) && readAll(backend),
          "the reply read once the loop runs");
      assertEquals(Collections.singletonList(3L), backend.eval(INCR, key));
    }
  }

  /**
   * The lower bound: a Redis really silent (the loop free) is still silent after max-wait, and the
   * share decides, with or without this change.
   */
  @Test
  void aRedisReallySilentIsSilentWhenTheLoopRuns(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend = connect(server); AutoCloseable loopsFree = release::countDown) {
      String key = RedisTestSupport.uniqueRule("stall");
      backend.eval(INCR, key);
      server.call("CLIENT", "PAUSE", "60000", "WRITE");
      try {
        Future<List<Object>> decision = requests.submit(() -> backend.eval(INCR, key));
        BackendUnavailableException late = lateDecision(decision);
        assertEquals(RedisFailure.HUNG, late.kind(), late.getMessage());
        assertFalse(backend.answeredWithin(MAX_WAIT.toNanos()),
            "nothing read for max-wait while the loop ran: Redis silent");
      } finally {
        server.call("CLIENT", "UNPAUSE");
      }
      awaitTrue(() -> readAll(backend), "the late reply read");
    }
  }

  /**
   * The starved instance of L-6, at one key: three instances, Redis's last answer a grant with
   * plenty left (28 of 30), this instance's share too (8 of 10). Its next call is answered in time
   * but waits unread behind the stalled loop. On main Redis counted silent, and the share bet on
   * its part of the grant (admitted); counted answering (this branch's first version), the share
   * covered the calls in flight (admitted, the others may have spent it); now this JVM has not
   * listened: held (refused here), its token a credit once the loop reads it.
   */
  @Test
  void theStarvedInstancesShareDoesNotBetWhileItsLoopHasNotRead(@PrivateRedis RedisServer server)
      throws Exception {
    try (RedisBackend backend = connect(server); AutoCloseable loopsFree = release::countDown) {
      RedisGcraStore redis = new RedisGcraStore(backend, RedisTestSupport.uniqueRule("stall"),
          new TokenBucket(LimitSpec.of(30, TimeUnit.HOURS.toNanos(1))));
      FailurePolicyStore store =
          new FailurePolicyStore(redis, OnFailure.DENY, () -> 3, Clock.system(), 1_000);
      for (int i = 0; i < 2; i++) { // its share of 10 left 8, Redis's 28
        Verdict warm = new Verdict();
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, warm));
        assertTrue(warm.allowed, "within the limit: " + i);
      }

      server.call("CLIENT", "PAUSE", "60000", "WRITE");
      Verdict verdict = new Verdict();
      Future<DecisionSource> decision;
      try {
        decision = requests.submit(() -> store.decideWithSource("k", 1, verdict));
        awaitTrue(() -> blockedClients(server) == 1, "the call at Redis, held by the pause");
        stallTheEventLoops(backend);
      } finally {
        server.call("CLIENT", "UNPAUSE");
      }
      awaitTrue(() -> blockedClients(server) == 0, "Redis ran the call and sent its reply");

      assertEquals(DecisionSource.DEGRADED_LOCAL, decision.get(), "a late decision");
      assertFalse(verdict.allowed, "held: the share does not bet while this JVM has not read");
    }
  }

  /**
   * Sends {@code INCR key} from a request thread while Redis holds it ({@code CLIENT PAUSE}),
   * occupies the event loops, then lets Redis answer: the reply sits unread in the socket.
   */
  private Future<List<Object>> answeredWhileTheLoopIsStalled(RedisServer server,
      RedisBackend backend, String key) throws InterruptedException {
    server.call("CLIENT", "PAUSE", "60000", "WRITE");
    Future<List<Object>> decision;
    try {
      decision = requests.submit(() -> backend.eval(INCR, key));
      awaitTrue(() -> blockedClients(server) == 1, "the call at Redis, held by the pause");
      stallTheEventLoops(backend);
    } finally {
      server.call("CLIENT", "UNPAUSE");
    }
    awaitTrue(() -> blockedClients(server) == 0, "Redis ran the call and sent its reply");
    return decision;
  }

  /** Blocks every event loop of the connection until {@link #release}; returns once they are. */
  private void stallTheEventLoops(RedisBackend backend) throws InterruptedException {
    assertFalse(backend.eventLoops().loops().isEmpty(), "the connection's loops are known");
    CountDownLatch stalled = new CountDownLatch(backend.eventLoops().loops().size());
    for (EventLoop loop : backend.eventLoops().loops()) {
      loop.execute(() -> {
        stalled.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    awaitTrue(() -> stalled.getCount() == 0, "every event loop occupied");
  }

  private static BackendUnavailableException lateDecision(Future<List<Object>> decision)
      throws InterruptedException {
    try {
      fail("decided by Redis: " + decision.get());
      return null;
    } catch (ExecutionException e) {
      assertTrue(e.getCause() instanceof BackendUnavailableException, String.valueOf(e.getCause()));
      return (BackendUnavailableException) e.getCause();
    }
  }

  /** Whether no call is outstanding any more (every reply read). */
  private static boolean readAll(RedisBackend backend) {
    return backend.outstandingCommands() == 0;
  }

  private static long blockedClients(RedisServer server) {
    String info = String.valueOf(server.call("INFO", "clients"));
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("blocked_clients:")) {
        return Long.parseLong(line.substring("blocked_clients:".length()).trim());
      }
    }
    throw new AssertionError("no blocked_clients in " + info);
  }

  private static RedisBackend connect(RedisServer server) {
    return connect(server, TIMEOUT, MAX_WAIT);
  }

  private static RedisBackend connect(RedisServer server, Duration timeout, Duration maxWait) {
    RedisBackend backend = RedisBackend.connect(RedisConnectionSettings.uri(server.uri())
        .withTimeout(timeout).withMaxWait(maxWait), false);
    assertTrue(backend.awaitConnected(Duration.ofSeconds(20)), "no connection to " + server);
    return backend;
  }
}
