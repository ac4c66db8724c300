package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.FaultyProxy;
import io.tollgate.testing.redis.RedisServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** Shared helpers for the Redis store tests. */
final class RedisTestSupport {

  private static final AtomicInteger RULES = new AtomicInteger();

  private RedisTestSupport() {}

  /** A backend on {@code server}, connected, with a generous timeout unless told otherwise. */
  static RedisBackend connect(RedisServer server, Duration timeout) {
    RedisBackend backend =
        RedisBackend.connect(RedisConnectionSettings.uri(server.uri()).withTimeout(timeout));
    assertTrue(backend.awaitConnected(Duration.ofSeconds(20)), "no connection to " + server);
    return backend;
  }

  /** As above, with token-bucket and gcra decisions batched ({@link RedisBatcher}). */
  static RedisBackend connectBatching(RedisServer server, Duration timeout) {
    RedisBackend backend = RedisBackend.connect(
        RedisConnectionSettings.uri(server.uri()).withTimeout(timeout), true);
    assertTrue(backend.awaitConnected(Duration.ofSeconds(20)), "no connection to " + server);
    return backend;
  }

  /**
   * A backend behind {@code proxy}, connected, with a 50 ms timeout and {@code maxWait}: a
   * connect timeout of 30 s, so that a reconnect the proxy holds is slow, not failed.
   */
  static RedisBackend connectThrough(FaultyProxy proxy, Duration maxWait, int maxWaitingThreads,
      boolean batched) {
    return connectThrough(proxy, maxWait, Duration.ofSeconds(30), maxWaitingThreads, batched);
  }

  /** As above, with {@code connectTimeout}: a reconnect the proxy holds longer fails. */
  static RedisBackend connectThrough(FaultyProxy proxy, Duration maxWait, Duration connectTimeout,
      int maxWaitingThreads, boolean batched) {
    RedisBackend backend = RedisBackend.connect(
        RedisConnectionSettings.uri(proxy.uri())
            .withTimeout(Duration.ofMillis(50))
            .withMaxWait(maxWait)
            .withConnectTimeout(connectTimeout)
            .withMaxWaitingThreads(maxWaitingThreads),
        batched);
    assertTrue(backend.awaitConnected(Duration.ofSeconds(30)), "no connection to " + proxy);
    return backend;
  }

  static RedisBackend connect(RedisServer server) {
    return connect(server, Duration.ofSeconds(5));
  }

  /** A rule name no other test (or earlier run against the same REDIS_URL) uses. */
  static String uniqueRule(String base) {
    return base + "-" + Long.toString(System.nanoTime(), 36) + "-" + RULES.incrementAndGet();
  }

  static long days(long n) {
    return Duration.ofDays(n).toNanos();
  }
}
