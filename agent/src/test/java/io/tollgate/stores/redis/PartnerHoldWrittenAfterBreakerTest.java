package io.tollgate.stores.redis;

import static io.tollgate.testing.Conditions.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A partner's wait learnt while the circuit breaker is open (a few slow replies were enough, on a
 * busy host) still reaches Redis, and so the other instances: it is written once the breaker's
 * open period has passed, although no decision probes the breaker (an instance with no traffic on
 * Redis rules leaves it half open). Before, such a write was dropped for good (an
 * {@code OutboundClientIT} run waited 60 s for the shared wait).
 */
@ExtendWith(RedisServerExtension.class)
class PartnerHoldWrittenAfterBreakerTest {

  @Test
  void aWaitLearntWhileTheBreakerIsOpenIsWrittenOnceItMayTryAgain(RedisServer redis) {
    RedisConnectionSettings settings = RedisConnectionSettings.uri(redis.uri())
        .withBreaker(3, Duration.ofMillis(500));
    RedisBackend backend = RedisBackend.connect(settings);
    try {
      assertTrue(backend.awaitConnected(Duration.ofSeconds(30)), "connected");
      String rule = "outbound.hold-" + UUID.randomUUID().toString().substring(0, 8);
      RedisPartnerHolds holds = new RedisPartnerHolds(backend, rule);
      backend.breaker().open();
      assertEquals(CircuitBreaker.State.OPEN, backend.breaker().state());

      holds.write("tenant-a", System.nanoTime() + TimeUnit.SECONDS.toNanos(30), "429");

      String key = RedisKeys.partnerHoldKey(rule, "tenant-a");
      awaitTrue(() -> Long.valueOf(1).equals(redis.call("EXISTS", key)),
          "the wait written once the breaker's open period passed");
      assertTrue(backend.breaker().state() != CircuitBreaker.State.CLOSED,
          "nothing but the write went to Redis: the breaker was not closed by a decision");
    } finally {
      backend.close();
    }
  }
}
