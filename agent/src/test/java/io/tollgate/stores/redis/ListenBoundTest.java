package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How long a request thread waits for this JVM's event loop at each of a decision's two checks
 * ({@link EventLoopBarrier}): its {@code timeout}, but never so long that {@code max-wait} and
 * both waits together hold the thread past 30 s, the most the agent holds any request.
 */
class ListenBoundTest {

  @ParameterizedTest(name = "timeout {0} ms, max-wait {1} ms: waits at most {2} ms a check")
  @CsvSource({
      // timeout, max-wait, bound: the defaults, then settings near the 30 s ceiling
      "50,    1000,  50",
      "1000,  2000,  1000",
      "10000, 10000, 10000",
      "20000, 20000, 5000",
      "30000, 30000, 0",
      "100,   30000, 0",
      "15000, 29000, 500",
  })
  void theTimeoutWithinThirtySecondsInAll(long timeoutMs, long maxWaitMs, long boundMs) {
    long bound = RedisBackend.listenBoundNanos(
        TimeUnit.MILLISECONDS.toNanos(timeoutMs), TimeUnit.MILLISECONDS.toNanos(maxWaitMs));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(boundMs), bound);
    assertTrue(TimeUnit.MILLISECONDS.toNanos(maxWaitMs) + 2 * bound
        <= TimeUnit.SECONDS.toNanos(30), "max-wait and two waits within 30 s");
  }
}
