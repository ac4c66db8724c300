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
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a loaded host and a flaky connection do to decisions on Redis: a late reply on a live
 * connection is waited for and never opens the breaker; a dropped connection is back before a
 * decision falls back; only a connection that cannot be made opens the breaker; an error reply for
 * one rule leaves the other rules on Redis; and the local fallback keeps its state across switches.
 *
 * <p>Faults come from a loopback proxy of the test's own ({@link FaultyProxy}) or a private server;
 * every wait is on a condition, and the timeouts are generous, so a busy machine changes how long
 * a test takes, not what it sees.
 */
@ExtendWith(RedisServerExtension.class)
class RedisUnderLoadTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);

  @Test
  void lateRepliesOnALiveConnectionAreWaitedForAndNeverOpenTheBreaker(RedisServer server)
      throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = connect(proxy, Duration.ofMillis(20), Duration.ofSeconds(60))) {
      FailurePolicyStore store = store(backend, "late", 20, OnFailure.ALLOW);
      proxy.delayReplies(150); // every reply later than the timeout, as on a saturated host
      int allowed = 0;
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<DecisionSource>> decisions = new ArrayList<>();
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          Verdict verdict = new Verdict();
          verdicts.add(verdict);
          Callable<DecisionSource> decide = () -> store.decideWithSource("k", 1, verdict);
          decisions.add(threads.submit(decide));
        }
        for (int i = 0; i < decisions.size(); i++) {
          assertEquals(DecisionSource.BACKEND, decisions.get(i).get(), "decided by redis, late");
          allowed += verdicts.get(i).allowed ? 1 : 0;
        }
      } finally {
        threads.shutdownNow();
      }
      assertEquals(20, allowed, "exactly the limit, however late the replies");
      assertEquals(0, backend.breaker().timesOpened(), "slowness never opens the breaker");
      assertEquals(0, store.failOpenDecisions());
    }
  }

  @Test
  void aKilledConnectionIsBackBeforeADecisionFallsBack(@PrivateRedis RedisServer server) {
    try (RedisBackend backend = connect(server.uri(), Duration.ofSeconds(30), null)) {
      FailurePolicyStore deny = store(backend, "kill", 1_000_000, OnFailure.DENY);
      Verdict verdict = new Verdict();
      assertEquals(DecisionSource.BACKEND, deny.decideWithSource("k", 1, verdict));

      server.call("CLIENT", "KILL", "TYPE", "normal"); // every client but the one asking
      int fellBack = 0;
      for (int i = 0; i < 50; i++) {
        if (deny.decideWithSource("k", 1, verdict) != DecisionSource.BACKEND) {
          fellBack++;
        }
      }
      // At most the one decision that was on the wire when the connection went: the others wait
      // for the reconnect, which starts at once, within their timeout.
      assertTrue(fellBack <= 1, fellBack + " decisions fell back to deny");
      assertEquals(0, backend.breaker().timesOpened(), "a reconnect that works opens nothing");
    }
  }

  @Test
  void onlyAConnectionThatCannotBeMadeOpensTheBreaker(RedisServer server) throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = connect(proxy, Duration.ofMillis(200), null)) {
      FailurePolicyStore deny = store(backend, "refused", 1_000_000, OnFailure.DENY);
      Verdict verdict = new Verdict();
      assertEquals(DecisionSource.BACKEND, deny.decideWithSource("k", 1, verdict));

      proxy.stopListening(); // refused by the kernel: Redis unreachable
      proxy.dropConnections();
      awaitTrue(() -> backend.breaker().timesOpened() > 0, "a failed reconnect opens the breaker");
      BackendUnavailableException failure = null;
      try {
        backend.eval(RedisScript.INSTANCES, "tollgate:probe", "x", "1000", "0");
      } catch (BackendUnavailableException e) {
        failure = e;
      }
      assertTrue(failure != null && failure.kind() == RedisFailure.UNREACHABLE, "" + failure);
      assertEquals(DecisionSource.FAIL_CLOSED, deny.decideWithSource("k", 1, verdict));

      proxy.listenAgain();
      awaitTrue(
          () -> deny.decideWithSource("k", 1, verdict) == DecisionSource.BACKEND,
          "decided on redis again once a connection can be made");
      assertEquals(CircuitBreaker.State.CLOSED, backend.breaker().state());
    }
  }

  @Test
  void anErrorReplyForOneRuleLeavesTheOtherRulesOnRedis(RedisServer server) {
    try (RedisBackend backend = connect(server.uri(), Duration.ofSeconds(5), null)) {
      String brokenRule = RedisTestSupport.uniqueRule("wrongtype");
      FailurePolicyStore broken = store(backend, brokenRule, 100, OnFailure.DENY, true);
      FailurePolicyStore healthy = store(backend, "healthy", 100, OnFailure.DENY);
      Verdict verdict = new Verdict();
      assertEquals(DecisionSource.BACKEND, broken.decideWithSource("k", 1, verdict));

      // The broken rule's key, whatever its layout, holds a string now: its scripts get WRONGTYPE.
      List<?> keys = (List<?>) server.call("KEYS", "*" + brokenRule + "*");
      assertFalse(keys.isEmpty(), "the rule's key names the rule");
      for (Object key : keys) {
        server.call("SET", String.valueOf(key), "not-a-bucket");
      }
      for (int i = 0; i < 10; i++) {
        assertEquals(DecisionSource.FAIL_CLOSED, broken.decideWithSource("k", 1, verdict));
        assertEquals(DecisionSource.BACKEND, healthy.decideWithSource("k", 1, verdict));
      }
      assertEquals(10, broken.ruleErrorDecisions());
      assertEquals(0, backend.breaker().timesOpened(), "one rule's error is not an outage");
      assertEquals(CircuitBreaker.State.CLOSED, backend.breaker().state());
    }
  }

  @Test
  void theLocalFallbackKeepsItsStateAcrossSwitches(RedisServer server) throws Exception {
    try (FaultyProxy proxy = new FaultyProxy(server.port());
        RedisBackend backend = connect(proxy, Duration.ofMillis(200), null)) {
      FailurePolicyStore local = store(backend, "switches", 10, OnFailure.LOCAL);
      Verdict verdict = new Verdict();
      int allowed = 0;
      for (int i = 0; i < 10; i++) {
        assertEquals(DecisionSource.BACKEND, local.decideWithSource("used", 1, verdict));
        allowed += verdict.allowed ? 1 : 0;
      }
      assertEquals(10, allowed);

      proxy.stopListening(); // refused by the kernel: Redis unreachable
      proxy.dropConnections();
      awaitTrue(() -> backend.breaker().timesOpened() > 0, "redis unreachable");
      int allowedLocally = 0;
      for (int i = 0; i < 10; i++) {
        assertEquals(DecisionSource.DEGRADED_LOCAL, local.decideWithSource("used", 1, verdict));
        allowedLocally += verdict.allowed ? 1 : 0;
        local.decideWithSource("fresh", 1, verdict); // a key Redis never saw: its full share
      }
      assertEquals(0, allowedLocally, "the switch to local hands out no fresh burst");

      proxy.listenAgain();
      awaitTrue(
          () -> local.decideWithSource("other", 1, verdict) == DecisionSource.BACKEND,
          "on redis again");
      assertEquals(DecisionSource.BACKEND, local.decideWithSource("fresh", 1, verdict));
      assertFalse(verdict.allowed, "what the local share allowed was charged to redis");
    }
  }

  private static RedisBackend connect(FaultyProxy proxy, Duration timeout, Duration maxWait) {
    return connect(proxy.uri(), timeout, maxWait);
  }

  private static RedisBackend connect(String uri, Duration timeout, Duration maxWait) {
    // Room for every thread of these tests to wait: the bulkhead is SlowRedisTest's subject.
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri(uri).withTimeout(timeout).withMaxWaitingThreads(16);
    if (maxWait != null) {
      settings = settings.withMaxWait(maxWait);
    }
    RedisBackend backend = RedisBackend.connect(settings);
    assertTrue(backend.awaitConnected(Duration.ofSeconds(30)), "no connection to " + uri);
    return backend;
  }

  private static FailurePolicyStore store(
      RedisBackend backend, String name, long limit, OnFailure policy) {
    return store(backend, name, limit, policy, false);
  }

  private static FailurePolicyStore store(
      RedisBackend backend, String name, long limit, OnFailure policy, boolean exactName) {
    RedisGcraStore redis =
        new RedisGcraStore(
            backend,
            exactName ? name : RedisTestSupport.uniqueRule(name),
            new TokenBucket(LimitSpec.of(limit, TEN_DAYS)));
    return new FailurePolicyStore(redis, policy, () -> 1, Clock.system(), 1_000);
  }
}
