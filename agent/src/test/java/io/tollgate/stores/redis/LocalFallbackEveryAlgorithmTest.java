package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.Verdict;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code on-failure: local} with Redis unreachable, for every algorithm: the fallback runs the
 * rule's own algorithm with the limit divided by the live instances (here 2), and releases and
 * cost corrections reach it too.
 */
class LocalFallbackEveryAlgorithmTest {

  private static final long TEN_DAYS = TimeUnit.DAYS.toNanos(10);
  private static RedisBackend unreachable;

  @BeforeAll
  static void connectToNothing() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    unreachable =
        RedisBackend.connect(
            RedisConnectionSettings.uri("redis://127.0.0.1:" + port)
                .withTimeout(Duration.ofSeconds(5)));
  }

  @AfterAll
  static void close() {
    unreachable.close();
  }

  @ParameterizedTest
  @EnumSource(value = AlgorithmKind.class, mode = EnumSource.Mode.EXCLUDE,
      names = "ADAPTIVE_CONCURRENCY") // local by nature: refused with backend: redis
  void theRulesOwnAlgorithmDecidesWithItsShareOfTheLimit(AlgorithmKind kind) {
    RedisAlgorithmStore redis =
        RedisAlgorithmStore.of(
            unreachable,
            RedisTestSupport.uniqueRule("fallback"),
            Algorithms.create(kind, LimitSpec.of(10, TEN_DAYS)));
    FailurePolicyStore store =
        new FailurePolicyStore(redis, OnFailure.LOCAL, () -> 2, Clock.system(), 1_000);
    assertEquals(kind.yamlName(), kindOf(store));
    Verdict verdict = new Verdict();
    int allowed = 0;
    for (int i = 0; i < 10; i++) {
      assertEquals(DecisionSource.DEGRADED_LOCAL, store.decideWithSource("k", 1, verdict));
      allowed += verdict.allowed ? 1 : 0;
    }
    assertEquals(5, allowed, "limit 10 over 2 live instances");
    if (kind == AlgorithmKind.CONCURRENCY) {
      store.release("k", 1); // a permit taken by the fallback goes back to the fallback
    } else {
      store.adjust("k", -1); // a refund reaches the fallback while Redis is down
    }
    store.decide("k", 1, verdict);
    assertTrue(verdict.allowed, kind + ": one unit back: " + verdict);
    store.decide("k", 1, verdict);
    assertEquals(false, verdict.allowed, kind + ": and only one");
  }

  private static String kindOf(FailurePolicyStore store) {
    String name = store.primary().algorithm().getClass().getSimpleName();
    return name.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
