package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The parts of the Redis store that need no server: keys, breaker, settings, log formatting. */
class RedisStoreUnitTest {

  @Test
  void breakerOpensAfterConsecutiveFailuresAndProbesOnce() {
    AtomicLong now = new AtomicLong(1_000);
    CircuitBreaker breaker = new CircuitBreaker(3, 100, now::get);
    for (int i = 0; i < 2; i++) {
      assertEquals(CircuitBreaker.Permit.NORMAL, breaker.tryAcquire());
      breaker.onFailure(CircuitBreaker.Permit.NORMAL);
    }
    breaker.onSuccess(CircuitBreaker.Permit.NORMAL); // a success resets the count
    for (int i = 0; i < 3; i++) {
      assertEquals(CircuitBreaker.Permit.NORMAL, breaker.tryAcquire());
      breaker.onFailure(CircuitBreaker.Permit.NORMAL);
    }
    assertEquals(CircuitBreaker.State.OPEN, breaker.state());
    assertEquals(CircuitBreaker.Permit.REJECTED, breaker.tryAcquire());
    assertEquals(100, breaker.remainingOpenNanos());

    now.addAndGet(100);
    assertEquals(CircuitBreaker.State.HALF_OPEN, breaker.state());
    assertEquals(CircuitBreaker.Permit.PROBE, breaker.tryAcquire());
    assertEquals(CircuitBreaker.Permit.REJECTED, breaker.tryAcquire(), "one probe at a time");
    breaker.onFailure(CircuitBreaker.Permit.PROBE);
    assertEquals(CircuitBreaker.State.OPEN, breaker.state(), "a failed probe reopens");
    assertEquals(CircuitBreaker.Permit.REJECTED, breaker.tryAcquire());

    now.addAndGet(100);
    assertEquals(CircuitBreaker.Permit.PROBE, breaker.tryAcquire());
    breaker.onSuccess(CircuitBreaker.Permit.PROBE);
    assertEquals(CircuitBreaker.State.CLOSED, breaker.state());
    assertEquals(CircuitBreaker.Permit.NORMAL, breaker.tryAcquire());
  }

  @Test
  void settingsDefaultsAndRedaction() {
    RedisConnectionSettings settings =
        RedisConnectionSettings.uri("rediss://app:s3cret@redis.example:6380/0");
    assertEquals(Duration.ofMillis(50), settings.timeout());
    assertFalse(settings.isCluster());
    assertFalse(settings.toString().contains("s3cret"), settings.toString());
    assertTrue(settings.toString().contains("rediss://***@redis.example:6380/0"), settings.toString());

    RedisConnectionSettings cluster =
        RedisConnectionSettings.cluster(Arrays.asList("redis://:pw@a:7000", "redis://b:7001"))
            .withTimeout(Duration.ofMillis(20));
    assertTrue(cluster.isCluster());
    assertEquals(Duration.ofMillis(20), cluster.timeout());
    assertFalse(cluster.toString().contains("pw"), cluster.toString());
    assertEquals("redis-sentinel://s1:26379,s2:26379/0#mymaster",
        RedisConnectionSettings.uri("redis-sentinel://s1:26379,s2:26379/0#mymaster").uri());
  }

  @Test
  void invalidUrisFailAtOnceAndTlsUrisAreAccepted() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> RedisBackend.connect(RedisConnectionSettings.uri("http://user:pw@nowhere")));
    assertFalse(e.getMessage().contains("pw"), e.getMessage());
    // Parsed and accepted; the connection is attempted in the background and never blocks here.
    try (RedisBackend backend =
        RedisBackend.connect(
            RedisConnectionSettings.uri("rediss://user:secret@127.0.0.1:1/0")
                .withConnectTimeout(Duration.ofMillis(100)))) {
      assertFalse(backend.isConnected());
    }
  }

  @Test
  void clientLogFormatting() {
    RuntimeException cause = new RuntimeException("boom");
    assertEquals("a 1 b 2 c {}", RedisClientLogging.format("a {} b {} c {}", 1, 2, cause));
    assertEquals(cause, RedisClientLogging.cause(1, 2, cause));
  }

  @Test
  void clientLogLinesNameAddressesAsConfigured() {
    String unresolved =
        RedisClientLogging.format(
            "Cannot reconnect to [{}]: {}",
            java.net.InetSocketAddress.createUnresolved("redis.internal", 6379),
            "Connection refused");
    assertEquals(
        "Cannot reconnect to [redis.internal:6379]: Connection refused",
        RedisClientLogging.readable(unresolved));
    assertEquals("localhost/127.0.0.1:6379", RedisClientLogging.readable("localhost/127.0.0.1:6379"));
  }
}
