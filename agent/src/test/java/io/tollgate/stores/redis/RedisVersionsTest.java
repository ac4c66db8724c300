package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.testing.redis.RedisBinaries;
import io.tollgate.testing.redis.RedisProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scripts (every algorithm's) on every redis-server binary this machine has: the one on PATH (Debian 12: Redis 7.0)
 * and the one shipped in embedded-redis (6.2), so that both the Redis 7 script engine and the older
 * one (where replicate_commands still matters) are covered.
 */
class RedisVersionsTest {

  @Test
  void sameDecisionsOnEveryAvailableBinary() {
    List<Path> binaries = RedisBinaries.all();
    assertFalse(binaries.isEmpty(), "no redis-server binary: install redis-server");
    for (Path binary : binaries) {
      try (RedisProcess server = RedisProcess.start(binary);
          RedisBackend backend = RedisTestSupport.connect(server)) {
        String version = String.valueOf(server.call("INFO", "server"));
        System.err.println("[test] " + binary + ": "
            + version.lines().filter(l -> l.startsWith("redis_version")).findFirst().orElse("?"));
        TokenBucketConformanceTest.runConformance(
            backend, server, new LimitSpec(7, TimeUnit.MINUTES.toNanos(1), 3), 400, 7);
        TokenBucketConformanceTest.runConformance(
            backend, server, new LimitSpec(1_000_000, TimeUnit.DAYS.toNanos(1), 1_000_000), 400,
            11);
        for (AlgorithmKind kind : AlgorithmConformanceTest.kinds().toArray(AlgorithmKind[]::new)) {
          AlgorithmConformanceTest.runRandomTraffic(
              backend, kind, 7, TimeUnit.MINUTES.toNanos(1), 3, kind == AlgorithmKind.GCRA ? 20_000_000_000L : 0, 300);
        }
        PenaltyBoxConformanceTest.runRandomRefusals(backend, 7, 300);
      }
    }
  }
}
