package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Redis going away and coming back, on servers of the tests' own (ended by process id): decisions
 * fail within the timeout, then at once while the breaker is open; the on-failure policies apply;
 * decisions succeed again soon after Redis returns. No assertion on speed except generous bounds on
 * waits.
 */
@ExtendWith(RedisServerExtension.class)
class RedisFailureTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  /**
   * A frozen server on a live connection: the first decision waits the hard bound, then the
   * backend is marked hung and decisions wait only their timeout, until a reply comes back. Not
   * an outage for the breaker (an overloaded host can look the same for as long).
   */
  @Test
  void hungRedisTimesOutThenDecisionsWaitOnlyTheTimeoutThenRecover(
      @PrivateRedis RedisServer server) {
    Duration timeout = Duration.ofMillis(300);
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri(server.uri())
            .withTimeout(timeout)
            .withMaxWait(Duration.ofSeconds(1))
            .withBreaker(3, Duration.ofMillis(500));
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      RedisGcraStore store =
          new RedisGcraStore(backend, "hang", new TokenBucket(LimitSpec.of(100, TEN_DAYS)));
      Verdict verdict = new Verdict();
      store.decide("k", 1, verdict);
      assertTrue(verdict.allowed);

      server.pause(); // SIGSTOP: the connection stays up, nothing answers
      try {
        for (int i = 0; i < 5; i++) {
          BackendUnavailableException e =
              assertThrows(BackendUnavailableException.class, () -> store.decide("k", 1, verdict));
          assertTrue(e.getMessage().contains("timed out"), e.getMessage());
          assertEquals(RedisFailure.HUNG, e.kind());
        }
        assertEquals(CircuitBreaker.State.CLOSED, backend.breaker().state());
      } finally {
        server.resume();
      }
      awaitTrue(() -> decides(store, verdict), "decisions succeed again after the pause");
      assertEquals(0, backend.breaker().timesOpened());
    }
  }

  @Test
  void killedRedisAppliesPoliciesAndRestartRecovers(@PrivateRedis RedisServer server) {
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri(server.uri())
            .withTimeout(Duration.ofMillis(500))
            .withBreaker(3, Duration.ofMillis(300))
            // An instance counts as live for three heartbeats: 1 s each, so that a busy build machine
            // delaying one beat by a few hundred milliseconds does not drop the other instance.
            .withInstances("failure-test", Duration.ofSeconds(1), 1);
    try (RedisBackend backend = RedisBackend.connect(settings);
        RedisBackend otherInstance = RedisBackend.connect(settings)) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      assertTrue(otherInstance.awaitConnected(Duration.ofSeconds(20)));
      try (InstanceRegistry registry = new InstanceRegistry(backend);
          InstanceRegistry otherRegistry = new InstanceRegistry(otherInstance)) {
        awaitTrue(() -> registry.beat() == 2, "both instances counted");

        TokenBucket bucket = new TokenBucket(LimitSpec.of(10, TEN_DAYS));
        FailurePolicyStore allow = policyStore(backend, "allow", bucket, OnFailure.ALLOW, registry);
        FailurePolicyStore deny = policyStore(backend, "deny", bucket, OnFailure.DENY, registry);
        FailurePolicyStore local = policyStore(backend, "local", bucket, OnFailure.LOCAL, registry);
        Verdict verdict = new Verdict();
        assertEquals(DecisionSource.BACKEND, allow.decideWithSource("k", 1, verdict));
        assertEquals(DecisionSource.BACKEND, deny.decideWithSource("k", 1, verdict));
        assertEquals(DecisionSource.BACKEND, local.decideWithSource("k", 1, verdict));

        // Both announced just before the kill: a scheduled beat of this instance in the few ms
        // left cannot find the other gone, however late a busy machine runs the other's own
        // scheduled beats (a CI run saw one 2 s late: "1 instance ... (2 before)" before the kill).
        otherRegistry.beat();
        assertEquals(2, registry.beat(), "both instances counted just before the kill");
        long pid = server.pid();
        server.kill();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "killed");

        for (int i = 0; i < 20; i++) {
          assertEquals(DecisionSource.FAIL_OPEN, allow.decideWithSource("k", 1, verdict));
          assertTrue(verdict.allowed);

          assertEquals(DecisionSource.FAIL_CLOSED, deny.decideWithSource("k", 1, verdict));
          assertFalse(verdict.allowed);
          assertTrue(verdict.retryAfterNanos >= TimeUnit.SECONDS.toNanos(1), verdict.toString());
        }
        assertEquals(2, registry.liveInstances(), "the last count holds while Redis is down");
        int allowedLocally = 0;
        for (int i = 0; i < 20; i++) {
          assertEquals(DecisionSource.DEGRADED_LOCAL, local.decideWithSource("x", 1, verdict));
          if (verdict.allowed) {
            allowedLocally++;
          }
        }
        assertEquals(5, allowedLocally, "limit 10 over 2 live instances");
        assertTrue(allow.failOpenDecisions() >= 20);
        assertTrue(deny.failClosedDecisions() >= 20);
        assertEquals(20, local.degradedLocalDecisions());
        local.decide("y", 1, verdict);
        assertTrue(verdict.fallback, "decided by the fallback: no quota headers, a backend error");
        assertFalse(verdict.backendUnavailable, "a local refusal is a 429, not a 503");

        server.restart();
        awaitTrue(
            () -> allow.decideWithSource("k", 1, verdict) == DecisionSource.BACKEND,
            "decisions on redis again after the restart");
        awaitTrue(
            () -> deny.decideWithSource("k", 1, verdict) == DecisionSource.BACKEND, "deny store");
        // The restarted server is empty: the bucket starts full again.
        assertTrue(verdict.allowed);
        allow.decide("k", 1, verdict);
        assertFalse(verdict.fallback, "decided on redis");
        awaitTrue(() -> registry.beat() == 2, "both instances announce themselves again");
      }
    }
  }

  @Test
  void aDecisionWhileTheFirstConnectionIsBeingMadeWaitsForIt(@PrivateRedis RedisServer server) {
    // The first requests after the application started: Redis is up, the connection not yet.
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri(server.uri()).withTimeout(Duration.ofSeconds(10));
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      RedisGcraStore store =
          new RedisGcraStore(backend, "early", new TokenBucket(LimitSpec.of(5, TEN_DAYS)));
      Verdict verdict = new Verdict();
      store.decide("k", 1, verdict); // would throw "not connected" without the wait
      assertTrue(verdict.allowed);
      assertEquals(4, verdict.remaining);
    }
  }

  @Test
  void noServerAtAllFailsFastAndNeverBlocks() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri("redis://127.0.0.1:" + port).withTimeout(Duration.ofSeconds(5));
    try (RedisBackend backend = RedisBackend.connect(settings)) {
      RedisGcraStore store =
          new RedisGcraStore(backend, "none", new TokenBucket(LimitSpec.of(1, TEN_DAYS)));
      for (int i = 0; i < 20; i++) {
        BackendUnavailableException e =
            assertThrows(BackendUnavailableException.class, () -> store.decide("k", 1, new Verdict()));
        // Rejected at once (not connected, or the breaker open), never after waiting the timeout.
        assertFalse(e.getMessage().contains("timed out"), e.getMessage());
      }
    }
  }

  private static FailurePolicyStore policyStore(
      RedisBackend backend, String name, TokenBucket bucket, OnFailure policy,
      InstanceRegistry registry) {
    RedisGcraStore redis =
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule(name), bucket);
    return new FailurePolicyStore(redis, policy, registry::liveInstances, Clock.system(), 1_000);
  }

  private static boolean decides(RedisGcraStore store, Verdict verdict) {
    try {
      store.decide("k", 1, verdict);
      return true;
    } catch (BackendUnavailableException e) {
      return false;
    }
  }
}
