package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rule whose algorithm changes (a reload, or instances of two versions of the rules file on one
 * Redis) starts on a new key: its first decision is a fresh key's, never {@code WRONGTYPE} nor a
 * misread of the other algorithm's fields, and the old key is left to expire.
 */
@ExtendWith(RedisServerExtension.class)
class AlgorithmChangeOnRedisTest {

  private static final long MIN = TimeUnit.MINUTES.toNanos(1);

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // before         after            (state types: hash, list, sorted set)
    "TOKEN_BUCKET,   SLIDING_LOG",
    "SLIDING_LOG,    GCRA",
    "CONCURRENCY,    FIXED_WINDOW",
    "FIXED_WINDOW,   SLIDING_WINDOW",
    "SLIDING_WINDOW, TOKEN_BUCKET",
    "GCRA,           CONCURRENCY",
  })
  void theNewAlgorithmStartsOnItsOwnKey(AlgorithmKind before, AlgorithmKind after, RedisServer server) {
    String rule = RedisTestSupport.uniqueRule("change");
    LimitSpec spec = LimitSpec.of(5, MIN);
    RedisAlgorithmStore old = RedisAlgorithmStore.of(backend, rule, Algorithms.create(before, spec));
    Verdict verdict = new Verdict();
    for (int i = 0; i < 5; i++) {
      old.decide("k", 1, verdict);
    }
    old.decide("k", 1, verdict);
    assertEquals(false, verdict.allowed, "the old algorithm's key is used up");

    RedisAlgorithmStore changed =
        RedisAlgorithmStore.of(backend, rule, Algorithms.create(after, spec));
    changed.decide("k", 1, verdict);
    assertTrue(verdict.allowed, verdict.toString());
    assertEquals(4, verdict.remaining, "a fresh key's budget less this request");
    assertTrue(!old.keyOf("k").equals(changed.keyOf("k")), changed.keyOf("k"));
    long ttl = (Long) server.call("PTTL", old.keyOf("k"));
    assertTrue(ttl > 0, "the old key expires by its TTL: " + ttl);
  }
}
