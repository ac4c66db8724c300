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
import io.tollgate.testing.redis.FaultyProxy;
import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Decisions that come while a reset connection is being made again wait for that reconnect, for
 * up to {@code max-wait} after that very drop, and are decided by Redis, not by {@code
 * on-failure}: also when the drop comes less than {@code max-wait} after the one before, and when
 * the reconnect takes longer than the decisions' {@code timeout}; a call per decision or batched.
 * A reconnect longer than {@code max-wait} that has not failed is slow, not down: the decisions
 * past their wait are made by the rule's local share, whatever its {@code on-failure}, and what
 * it admitted is charged to Redis once the connection is back. So are reconnect attempts that the
 * peer took and reset partway, while Redis answered within the connect timeout (a flapping path).
 * Only a reconnect that fails (refused, held past the connect timeout, or reset partway with Redis
 * silent for longer than the connect timeout) leaves them to {@code on-failure}.
 *
 * <p>With the connection reset once a second under a flood ({@code run-redis-faults.sh}, round
 * {@code drop}, {@code on-failure: allow}, a limit of 100), every request admitted over the limit
 * was one of these decided by {@code allow} (5-113 a round, batched or not): a drop that came a
 * little less than {@code max-wait} after the one before kept the older drop's date, and the
 * decision that first saw a drop read its deadline before dating it (BENCHMARKS.md, section 7,
 * h-batch4); and on a host loaded 20-33 the reconnect itself took longer than {@code max-wait}
 * (124-356 of 100, h-flight; the local share since h-reconnect). The reconnect is made slow by
 * the proxy holding new connections ({@link FaultyProxy#holdNewConnections}); the times are far
 * apart, so a busy machine only lengthens it.
 */
@ExtendWith(RedisServerExtension.class)
class ConnectionResetTest {

  private static final int DECISIONS = 8;

  /** Ten days for the limit: no refill to speak of, so Redis's count is read from remaining. */
  private static final long LIMIT = 1000;

  @ParameterizedTest(name = "batched {0}, on-failure {1}: drop {2} ms after the one before (0: "
      + "the first), reconnect {3} ms, max-wait {4} ms: {5} decided by redis, {6} by the local "
      + "share, {7} by on-failure")
  @CsvSource({
      // batched, on-failure, ms since the drop before (0: none), reconnect takes, max-wait,
      //     by redis, by the local share, by on-failure
      "false, ALLOW, 0,    1000, 6000, 8, 0, 0",
      "true,  ALLOW, 0,    1000, 6000, 8, 0, 0",
      "false, ALLOW, 2000, 4500, 6000, 8, 0, 0",
      "true,  ALLOW, 2000, 4500, 6000, 8, 0, 0",
      // the bound: nobody waits past max-wait after the drop for a reconnect still under way;
      // nothing failed, so it is slow, not down: the local share, whatever on-failure says
      "false, ALLOW, 0,    3000, 1000, 0, 8, 0",
      "true,  ALLOW, 0,    3000, 1000, 0, 8, 0",
      "false, DENY,  0,    3000, 1000, 0, 8, 0",
      "true,  DENY,  0,    3000, 1000, 0, 8, 0",
  })
  void decisionsAtADropWaitForItsReconnect(boolean batched, OnFailure policy,
      long sinceDropBefore, long reconnectMillis, long maxWaitMillis, int byRedis, int byShare,
      int byOnFailure, RedisServer server) throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisTestSupport.connectThrough(
            proxy, Duration.ofMillis(maxWaitMillis), DECISIONS, batched)) {
      FailurePolicyStore store = store(backend, policy);
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, new Verdict()));

      if (sinceDropBefore > 0) {
        long droppedBefore = System.nanoTime();
        dropAndAwaitSeen(proxy, backend);
        awaitTrue(backend::isConnected, "reconnected at once after the drop before");
        long left = droppedBefore + TimeUnit.MILLISECONDS.toNanos(sinceDropBefore)
            - System.nanoTime();
        assertTrue(left > 0, "the reconnect after the first drop took longer than "
            + sinceDropBefore + " ms: the case is not made");
        TimeUnit.NANOSECONDS.sleep(left); // the time between the two drops, the case itself
      }
      proxy.holdNewConnections(reconnectMillis);
      dropAndAwaitSeen(proxy, backend);

      Decided at = decideAtOnce(store);
      assertEquals(byRedis, at.byRedis(), "by redis: " + at);
      assertEquals(byShare, at.byShare(), "by the local share: " + at);
      assertEquals(byOnFailure, at.byOnFailure(), "by on-failure: " + at);

      // Never sent, what the share admitted is charged to Redis before the key's next decision.
      awaitTrue(backend::isConnected, "reconnected");
      Verdict last = new Verdict();
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, last));
      assertEquals(1 + at.byRedis() + at.admittedByShare + 1, LIMIT - last.remaining,
          "counted in redis: the first, those redis decided, those the share admitted, the last; "
              + at);
    }
  }

  /** How the reconnect attempts after the drop end. */
  enum Failing {
    /** Nothing listens any more: every attempt is refused by the kernel (ECONNREFUSED). */
    REFUSED,
    /**
     * Every new connection is reset as soon as it is accepted: as a proxy or load balancer in
     * front of a dead Redis does (and the fault benchmark's {@code reset-at-accept on}).
     */
    RESET_AT_ACCEPT,
    /**
     * Redis itself killed (SIGKILL, by its pid) behind the proxy: the proxy closes the connection
     * it forwarded, then takes every new one and resets it, its own connect to Redis refused; as
     * HAProxy, Envoy or a cloud load balancer in front of a dead Redis do. Restarted, empty.
     */
    REDIS_KILLED,
    /**
     * Every new connection is reset once the client sent its handshake's first bytes: attempts
     * killed partway, as a path that resets every second kills a reconnect slower than that.
     */
    RESET_PARTWAY,
    /**
     * Every new connection is held for a minute: the attempt hangs (as towards a host that drops
     * the SYN, or a server that takes it and answers nothing) until its connect timeout (5 s).
     */
    HANGS,
  }

  /**
   * Who decides while the reconnect attempts after a drop end so, in three phases: at the drop;
   * once an attempt ended (refused, reset, timed out); and once Redis has not answered for longer
   * than the connect timeout (5 s). A refusal or a timeout says Redis is gone: {@code on-failure}
   * from then on. An attempt the peer took and reset partway does not, while Redis answered
   * within the connect timeout: the local share until then, {@code on-failure} after. When the
   * fault ends, Redis counts the decisions the share admitted (they were never sent).
   */
  @ParameterizedTest(name = "batched {0}, on-failure {1}: the reconnect {2}, max-wait {3} ms: by"
      + " the local share / on-failure at the drop {4} / {5}, once an attempt ended {6} / {7},"
      + " once redis was silent past the connect timeout {8} / {9}")
  @CsvSource({
      // batched, on-failure, the reconnect, max-wait,
      //     by the local share / by on-failure: at the drop, once an attempt ended,
      //     once redis has not answered for the connect timeout
      "false, ALLOW, REFUSED,         6000, 0, 8, 0, 8, 0, 8",
      "true,  ALLOW, REFUSED,         6000, 0, 8, 0, 8, 0, 8",
      "false, DENY,  REFUSED,         6000, 0, 8, 0, 8, 0, 8",
      "true,  DENY,  REFUSED,         6000, 0, 8, 0, 8, 0, 8",
      // taken and reset: the share while redis answered within the connect timeout, then down
      "false, ALLOW, RESET_AT_ACCEPT,  500, 8, 0, 8, 0, 0, 8",
      "true,  ALLOW, RESET_AT_ACCEPT,  500, 8, 0, 8, 0, 0, 8",
      "false, DENY,  RESET_AT_ACCEPT,  500, 8, 0, 8, 0, 0, 8",
      "true,  DENY,  RESET_AT_ACCEPT,  500, 8, 0, 8, 0, 0, 8",
      "false, ALLOW, RESET_PARTWAY,    500, 8, 0, 8, 0, 0, 8",
      "true,  ALLOW, RESET_PARTWAY,    500, 8, 0, 8, 0, 0, 8",
      "false, DENY,  RESET_PARTWAY,    500, 8, 0, 8, 0, 0, 8",
      "true,  DENY,  RESET_PARTWAY,    500, 8, 0, 8, 0, 0, 8",
      // the same end to end: a dead redis behind a proxy is the share's for the bound, then down
      "false, ALLOW, REDIS_KILLED,     500, 8, 0, 8, 0, 0, 8",
      "true,  ALLOW, REDIS_KILLED,     500, 8, 0, 8, 0, 0, 8",
      "false, DENY,  REDIS_KILLED,     500, 8, 0, 8, 0, 0, 8",
      "true,  DENY,  REDIS_KILLED,     500, 8, 0, 8, 0, 0, 8",
      // once an attempt was killed partway nobody waits for the next: with a max-wait past the
      // bound, waiting decisions held their threads until it and went to on-failure (h-bound)
      "false, ALLOW, RESET_PARTWAY,  30000, 8, 0, 8, 0, 0, 8",
      "true,  ALLOW, RESET_PARTWAY,  30000, 8, 0, 8, 0, 0, 8",
      "false, DENY,  REDIS_KILLED,   30000, 8, 0, 8, 0, 0, 8",
      "true,  DENY,  REDIS_KILLED,   30000, 8, 0, 8, 0, 0, 8",
      // slow until the attempt times out, then down: bounded by the connect timeout
      "false, ALLOW, HANGS,           1000, 8, 0, 0, 8, 0, 8",
      "true,  ALLOW, HANGS,           1000, 8, 0, 0, 8, 0, 8",
      "false, DENY,  HANGS,           1000, 8, 0, 0, 8, 0, 8",
      "true,  DENY,  HANGS,           1000, 8, 0, 0, 8, 0, 8",
  })
  void onlyEvidenceThatRedisIsGoneAppliesOnFailure(boolean batched, OnFailure policy,
      Failing reconnect, long maxWaitMillis, int atDropByShare, int atDropByOnFailure,
      int endedByShare, int endedByOnFailure, int silentByShare, int silentByOnFailure,
      @PrivateRedis RedisServer server) throws Exception {
    Duration connectTimeout = RedisConnectionSettings.DEFAULT_CONNECT_TIMEOUT;
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisTestSupport.connectThrough(proxy,
            Duration.ofMillis(maxWaitMillis), connectTimeout, DECISIONS, batched)) {
      FailurePolicyStore store = store(backend, policy);
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, new Verdict()));

      switch (reconnect) {
        case REFUSED:
          proxy.stopListening();
          break;
        case RESET_AT_ACCEPT:
          proxy.refuseConnections(true);
          break;
        case RESET_PARTWAY:
          proxy.resetNewConnectionsPartway(true);
          break;
        case REDIS_KILLED:
          break; // the proxy as it is: its own connect to the dead redis refused, it resets
        default:
          proxy.holdNewConnections(TimeUnit.MINUTES.toMillis(1));
      }
      long acceptedBefore = proxy.acceptedConnections();
      if (reconnect == Failing.REDIS_KILLED) {
        server.kill();
        awaitTrue(() -> !backend.isConnected(), "the backend sees redis gone");
      } else {
        dropAndAwaitSeen(proxy, backend);
      }
      if (reconnect == Failing.HANGS) {
        assertTrue(backend.reconnecting(), "reconnecting, nothing failed yet (status says so)");
      }
      Decided atDrop = decideAtOnce(store);
      assertEquals(0, atDrop.byRedis(), "at the drop, by redis: " + atDrop);
      assertEquals(atDropByShare, atDrop.byShare(), "at the drop, by the share: " + atDrop);
      assertEquals(atDropByOnFailure, atDrop.byOnFailure(), "at the drop, by on-failure: "
          + atDrop);

      boolean killedPartway = reconnect == Failing.RESET_AT_ACCEPT
          || reconnect == Failing.RESET_PARTWAY || reconnect == Failing.REDIS_KILLED;
      if (killedPartway) {
        // Attempts are made one after the other: a second one taken, the first has ended.
        awaitTrue(() -> proxy.acceptedConnections() - acceptedBefore >= 2,
            "a reconnect attempt reset partway, and the next one made");
      } else {
        awaitTrue(() -> backend.breaker().timesOpened() > 0, "the reconnect failed");
      }
      Decided ended = decideAtOnce(store);
      assertEquals(0, ended.byRedis(), "an attempt ended, by redis: " + ended);
      assertEquals(endedByShare, ended.byShare(), "an attempt ended, by the share: " + ended);
      assertEquals(endedByOnFailure, ended.byOnFailure(), "an attempt ended, by on-failure: "
          + ended);
      if (killedPartway) {
        assertTrue(backend.attemptsResetPartway() > 0, "attempts reset partway: counted");
        assertTrue(backend.reconnecting(), "reset partway, redis answered lately: reconnecting"
            + " (status says so)");
        assertTrue(backend.millisSinceRedisAnswered() < connectTimeout.toMillis(),
            "the decisions took longer than the connect timeout: the case is not made");
      } else {
        assertFalse(backend.reconnecting(), "an attempt failed: not connected (status says so)");
      }

      awaitTrue(() -> backend.millisSinceRedisAnswered() > connectTimeout.toMillis(),
          "redis silent for longer than the connect timeout");
      Decided silent = decideAtOnce(store);
      assertEquals(0, silent.byRedis(), "redis silent, by redis: " + silent);
      assertEquals(silentByShare, silent.byShare(), "redis silent, by the share: " + silent);
      assertEquals(silentByOnFailure, silent.byOnFailure(), "redis silent, by on-failure: "
          + silent);
      assertFalse(backend.reconnecting(), "silent past the bound: not connected (status says so)");
      assertTrue(backend.breaker().timesOpened() > 0, "silent past the bound: the breaker opened");

      if (reconnect != Failing.REFUSED) { // (nothing listens there any more)
        if (reconnect == Failing.REDIS_KILLED) {
          server.restart();
        }
        proxy.refuseConnections(false);
        proxy.resetNewConnectionsPartway(false);
        proxy.holdNewConnections(0);
        awaitTrue(backend::isConnected, "reconnected once the fault ended");
        awaitTrue(() -> backend.breaker().state() == CircuitBreaker.State.CLOSED,
            "the breaker closed");
        Verdict last = new Verdict();
        assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, last));
        long first = reconnect == Failing.REDIS_KILLED ? 0 : 1; // (restarted empty)
        assertEquals(first + atDrop.admittedByShare + ended.admittedByShare
                + silent.admittedByShare + 1, LIMIT - last.remaining,
            "counted in redis: the first (unless restarted), those the share admitted, the last; "
                + atDrop + ", " + ended + ", " + silent);
      }
    }
  }

  /**
   * A key whose first request comes while Redis is dead behind a proxy (no answer of Redis for it
   * ever, nothing of it in the ledger): decided as a key Redis answered before, by the local share
   * from a full share until Redis has been silent for the connect timeout, then by {@code
   * on-failure}; the share's admissions are counted in Redis once it is back.
   */
  @ParameterizedTest(name = "batched {0}, on-failure {1}: a fresh key in the outage is the share's"
      + " until the bound, then on-failure's")
  @CsvSource({"false, ALLOW", "true, ALLOW", "false, DENY", "true, DENY"})
  void aKeyFirstSeenWhileRedisIsDeadBehindAProxyIsTheSharesUntilTheBound(boolean batched,
      OnFailure policy, @PrivateRedis RedisServer server) throws Exception {
    Duration connectTimeout = RedisConnectionSettings.DEFAULT_CONNECT_TIMEOUT;
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = RedisTestSupport.connectThrough(proxy,
            Duration.ofMillis(500), connectTimeout, DECISIONS, batched)) {
      FailurePolicyStore store = store(backend, policy);
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("k", 1, new Verdict()));
      long acceptedBefore = proxy.acceptedConnections();
      server.kill();
      awaitTrue(() -> !backend.isConnected(), "the backend sees redis gone");
      awaitTrue(() -> proxy.acceptedConnections() - acceptedBefore >= 2,
          "a reconnect attempt reset partway, and the next one made");

      Decided fresh = decideAtOnce(store, "fresh");
      assertTrue(backend.millisSinceRedisAnswered() < connectTimeout.toMillis(),
          "the decisions took longer than the connect timeout: the case is not made");
      assertEquals(DECISIONS, fresh.byShare(), "within the bound, by the share: " + fresh);
      assertEquals(DECISIONS, fresh.admittedByShare, "a full share admits them: " + fresh);

      awaitTrue(() -> backend.millisSinceRedisAnswered() > connectTimeout.toMillis(),
          "redis silent for longer than the connect timeout");
      Decided silent = decideAtOnce(store, "fresh2");
      assertEquals(DECISIONS, silent.byOnFailure(), "past the bound, by on-failure: " + silent);

      server.restart();
      awaitTrue(backend::isConnected, "reconnected once redis is back");
      awaitTrue(() -> backend.breaker().state() == CircuitBreaker.State.CLOSED,
          "the breaker closed");
      Verdict last = new Verdict();
      assertEquals(DecisionSource.BACKEND, store.decideWithSource("fresh", 1, last));
      assertEquals(DECISIONS + 1, LIMIT - last.remaining,
          "counted in redis: those the share admitted in the outage, and the last");
    }
  }

  private static FailurePolicyStore store(RedisBackend backend, OnFailure policy) {
    return new FailurePolicyStore(
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule("reset"),
            new TokenBucket(LimitSpec.of(LIMIT, TimeUnit.DAYS.toNanos(10)))),
        policy, () -> 1, Clock.system(), 1_000);
  }

  /** Resets the connection and waits until the backend knows it is down. */
  private static void dropAndAwaitSeen(FaultyProxy proxy, RedisBackend backend) {
    proxy.dropConnections();
    awaitTrue(() -> !backend.isConnected(), "the backend sees the drop");
  }

  /** Who decided a batch of decisions, and how many the local share admitted. */
  private static final class Decided {
    final Map<DecisionSource, Integer> by = new EnumMap<>(DecisionSource.class);
    int admittedByShare;

    int byRedis() {
      return by.getOrDefault(DecisionSource.BACKEND, 0);
    }

    int byShare() {
      return by.getOrDefault(DecisionSource.DEGRADED_LOCAL, 0);
    }

    int byOnFailure() {
      return by.getOrDefault(DecisionSource.FAIL_OPEN, 0)
          + by.getOrDefault(DecisionSource.FAIL_CLOSED, 0);
    }

    @Override
    public String toString() {
      return by + ", admitted by the share " + admittedByShare;
    }
  }

  /** {@link #DECISIONS} decisions of one key at once, counted by who decided them. */
  private static Decided decideAtOnce(FailurePolicyStore store) throws Exception {
    return decideAtOnce(store, "k");
  }

  /** As above, for {@code key}. */
  private static Decided decideAtOnce(FailurePolicyStore store, String key) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(DECISIONS);
    Decided decided = new Decided();
    try {
      List<Verdict> verdicts = new ArrayList<>();
      List<Future<DecisionSource>> decisions = new ArrayList<>();
      for (int i = 0; i < DECISIONS; i++) {
        Verdict verdict = new Verdict();
        verdicts.add(verdict);
        decisions.add(threads.submit(() -> store.decideWithSource(key, 1, verdict)));
      }
      for (int i = 0; i < DECISIONS; i++) {
        DecisionSource source = decisions.get(i).get(2, TimeUnit.MINUTES); // the verdict written
        decided.by.merge(source, 1, Integer::sum);
        if (source == DecisionSource.DEGRADED_LOCAL && verdicts.get(i).allowed) {
          decided.admittedByShare++;
        }
      }
    } finally {
      threads.shutdownNow();
    }
    return decided;
  }
}
