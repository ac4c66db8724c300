package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisBinaries;
import io.tollgate.testing.redis.RedisProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A master, a replica and one Sentinel, all of the test's own: the store connects through
 * {@code redis-sentinel://}, gives the same decisions as the local bucket, and after the master is
 * killed and the Sentinel promotes the replica, decides again on the new master.
 */
class RedisSentinelTest {

  @Test
  void decidesThroughSentinelAndAfterFailover() throws Exception {
    Path binary = RedisBinaries.onPath() != null ? RedisBinaries.onPath() : RedisBinaries.embedded();
    assertTrue(binary != null, "no redis-server binary: install redis-server");
    try (RedisProcess master = RedisProcess.start(binary);
        RedisProcess replica =
            RedisProcess.start(
                binary, freePort(), "--replicaof", "127.0.0.1", Integer.toString(master.port()));
        RedisProcess sentinel = RedisProcess.startSentinel(binary, "tollgate", master.port())) {
      awaitTrue(
          () -> String.valueOf(replica.call("INFO", "replication")).contains("master_link_status:up"),
          "replica in sync");
      String uri = "redis-sentinel://127.0.0.1:" + sentinel.port() + "/0#tollgate";
      RedisConnectionSettings settings =
          RedisConnectionSettings.uri(uri)
              .withTimeout(Duration.ofSeconds(2))
              .withBreaker(3, Duration.ofMillis(300));
      try (RedisBackend backend = RedisBackend.connect(settings)) {
        assertTrue(backend.awaitConnected(Duration.ofSeconds(30)), "connected through sentinel");
        TokenBucketConformanceTest.runConformance(
            backend, master, new LimitSpec(7, TimeUnit.MINUTES.toNanos(1), 3), 300, 13);

        RedisGcraStore store =
            new RedisGcraStore(
                backend, RedisTestSupport.uniqueRule("sentinel"),
                new TokenBucket(LimitSpec.of(100, TimeUnit.DAYS.toNanos(10))));
        Verdict verdict = new Verdict();
        store.decide("k", 1, verdict);
        assertTrue(verdict.allowed);

        master.kill();
        awaitTrue(
            () -> {
              @SuppressWarnings("unchecked")
              List<Object> address =
                  (List<Object>)
                      sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "tollgate");
              return address != null
                  && String.valueOf(replica.port()).equals(String.valueOf(address.get(1)));
            },
            "sentinel promoted the replica");
        awaitTrue(
            () -> {
              try {
                store.decide("k", 1, verdict);
                return true;
              } catch (BackendUnavailableException e) {
                return false;
              }
            },
            "decisions on the new master");
        assertTrue(verdict.allowed);
        assertEquals("master", roleOf(replica));
      }
    }
  }

  private static String roleOf(RedisProcess server) {
    String info = String.valueOf(server.call("INFO", "replication"));
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("role:")) {
        return line.substring(5).trim();
      }
    }
    return "?";
  }

  private static int freePort() throws Exception {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within 60 s: " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
