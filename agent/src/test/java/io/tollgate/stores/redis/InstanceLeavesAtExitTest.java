package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.PrivateRedis;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An instance whose JVM exits leaves the registry at once, so that the others stop dividing their
 * local share by it then, not three heartbeats later (in the fault benchmark, the instances of a
 * round stopped with SIGTERM were still counted during the next round's flood: each instance's
 * share was a quarter or a fifth of the limit instead of a third, and the rounds with replies 1 s
 * late admitted 60-75 of 100). Redis is real; the exit is the shutdown hook's own method, run here.
 */
@ExtendWith(RedisServerExtension.class)
class InstanceLeavesAtExitTest {

  /** Heartbeats an hour apart: an entry left behind would be counted for three hours. */
  private static RedisConnectionSettings settings(RedisServer server, String group) {
    return RedisConnectionSettings.uri(server.uri())
        .withTimeout(Duration.ofMillis(50))
        .withMaxWait(Duration.ofSeconds(10))
        .withInstances(group, Duration.ofHours(1), 1);
  }

  /** What a test does with two instances on one Redis, both announced. */
  private interface TwoInstances {
    void test(InstanceRegistry exiting, InstanceRegistry other) throws Exception;
  }

  /** Two instances of one group on {@code server}, each with its own backend, both announced. */
  private static void withTwoInstances(RedisServer server, String group, TwoInstances then)
      throws Exception {
    try (RedisBackend leaving = RedisBackend.connect(settings(server, group));
        RedisBackend staying = RedisBackend.connect(settings(server, group))) {
      assertTrue(leaving.awaitConnected(Duration.ofSeconds(20)));
      assertTrue(staying.awaitConnected(Duration.ofSeconds(20)));
      InstanceRegistry exiting = new InstanceRegistry(leaving);
      InstanceRegistry other = new InstanceRegistry(staying);
      try {
        exiting.beat();
        assertEquals(2, other.beat(), "both announced");
        then.test(exiting, other);
      } finally {
        other.close();
        exiting.close();
      }
    }
  }

  @Test
  void anInstanceThatExitsIsNoLongerCountedByTheOthers(@PrivateRedis RedisServer server)
      throws Exception {
    withTwoInstances(server, RedisTestSupport.uniqueRule("exit"), (exiting, other) -> {
      exiting.leaveAtExit();

      assertEquals(1, other.beat(), "the exited instance is gone at the next count");
    });
  }

  @Test
  void aFrozenRedisDoesNotHoldTheExitAndTheLeaveLandsWhenItThaws(@PrivateRedis RedisServer server)
      throws Exception {
    withTwoInstances(server, RedisTestSupport.uniqueRule("exit-frozen"), (exiting, other) -> {
      server.pause();
      long exitNanos;
      try {
        long start = System.nanoTime();
        exiting.leaveAtExit();
        exitNanos = System.nanoTime() - start;
      } finally {
        server.resume();
      }
      // Waited for its reply at most the timeout (50 ms), not the max-wait (10 s) a decision may
      // wait for a live connection's late reply: the bound is far from anything a busy host adds.
      assertTrue(exitNanos < TimeUnit.SECONDS.toNanos(10),
          "the exit waited " + TimeUnit.NANOSECONDS.toMillis(exitNanos) + " ms");
      assertEquals(1, other.beat(), "the leave sent while Redis was frozen ran when it thawed");
    });
  }

  @Test
  void closingTheRegistryTakesItsExitHookAway(@PrivateRedis RedisServer server) {
    try (RedisBackend backend =
        RedisBackend.connect(settings(server, RedisTestSupport.uniqueRule("exit-hook")))) {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(20)));
      InstanceRegistry registry = new InstanceRegistry(backend);
      registry.close();
      // Removing it again finds nothing: close took it away (a reload away from Redis must not
      // leave one hook per registry it ever made).
      assertFalse(Runtime.getRuntime().removeShutdownHook(registry.exitHook()));
    }
  }
}
