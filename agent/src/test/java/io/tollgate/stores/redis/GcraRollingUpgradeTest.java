package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.Gcra;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Agents before and after the token bucket's script was made cheaper (h-lua: the parameters'
 * fingerprint {@code p} sent by the caller, p written only when it changed, Redis TIME kept as
 * numbers) share one Redis during a rolling upgrade: both write the same hash ({@code tat}, {@code
 * tatFraction}, {@code p} with the same value), so each reads the other's buckets as its own, and
 * neither converts them (as it would a bucket of other parameters). Checked request by request
 * against one local {@link Gcra} that sees all the traffic, the two scripts taking turns on the keys.
 */
@ExtendWith(RedisServerExtension.class)
class GcraRollingUpgradeTest {

  /** The whole script as agents up to 4d18742 loaded it, with its own common.lua and budgets.lua. */
  private static final RedisScript BEFORE = RedisScript.load("legacy/gcra-4d18742.lua");

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  @ParameterizedTest(name = "{0} per {1} ns, burst {2}, max-delay {3} ns")
  @CsvSource({
    // limit,   period ns,        burst,   max-delay ns (-1: a token bucket)
    "7,         60000000000,      3,       -1",
    "1000,      1000000000,       50,      -1",
    "999983,    10000000007,      12345,   -1",
    "5000,      86400000000000,   5000,    -1",
    "7,         60000000000,      3,       20000000000",
    "3,         7000000000,       10,      5000000000",
  })
  void theScriptsBeforeAndAfterShareTheirKeys(
      long limit, long periodNanos, long burst, long maxDelayNanos, RedisServer server) {
    LimitSpec spec = new LimitSpec(limit, periodNanos, burst);
    Gcra gcra = maxDelayNanos < 0 ? new TokenBucket(spec) : new Gcra(spec, maxDelayNanos);
    ManualClock clock = new ManualClock(1_764_000_000_123_456_789L + limit);
    RedisGcraStore upgraded =
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule("rolling"), gcra, clock);
    Map<String, Gcra.State> reference = new HashMap<>();
    Random random = new Random(limit * 31 + burst);
    long intervalNanos = Math.max(1, periodNanos / limit);
    Verdict expected = new Verdict();
    Verdict actual = new Verdict();
    for (int i = 0; i < 400; i++) {
      clock.advanceNanos(random.nextInt(4) == 0 ? 0 : (long) (random.nextDouble() * 2 * intervalNanos));
      String key = "k" + random.nextInt(3);
      boolean before = random.nextBoolean();
      String where = (before ? "before" : "after") + ", request " + i + " on " + key;
      Gcra.State state = reference.computeIfAbsent(key, k -> gcra.newState());
      if (random.nextInt(10) == 0) {
        long delta = random.nextInt(5) - 2;
        gcra.adjust(state, clock.nowNanos(), delta);
        if (before) {
          callBefore(upgraded, key, RedisAlgorithmStore.ADJUST, delta);
        } else {
          upgraded.adjust(key, delta);
        }
      } else {
        long cost = random.nextInt(8) == 0 ? 1 + random.nextInt((int) Math.min(burst + 1, 100)) : 1;
        gcra.decide(state, clock.nowNanos(), cost, expected);
        if (before) {
          upgraded.applyDecision(callBefore(upgraded, key, RedisAlgorithmStore.DECIDE, cost), actual);
        } else {
          upgraded.decide(key, cost, actual);
        }
        assertEquals(expected.allowed, actual.allowed, where + ": " + actual);
        assertEquals(expected.remaining, actual.remaining, where + " remaining");
        assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, where + " retry-after");
        assertEquals(expected.resetNanos, actual.resetNanos, where + " reset");
        assertEquals(expected.nextUnitNanos, actual.nextUnitNanos, where + " next unit");
        assertEquals(expected.delayNanos, actual.delayNanos, where + " delay");
      }
      @SuppressWarnings("unchecked")
      List<Object> stored =
          (List<Object>) server.call("HMGET", upgraded.keyOf(key), "tat", "tatFraction", "p");
      if (state.tat() > clock.nowNanos() / gcra.unitNanos()) { // (as TokenBucketUpgradeTest)
        assertEquals(Long.toString(state.tat()), stored.get(0), where + " stored tat");
        assertEquals(Long.toString(state.tatFraction()), stored.get(1), where + " tatFraction");
        String[] argv = upgraded.decideArgv(1);
        assertEquals(argv[argv.length - 1], stored.get(2), where + " p, the same from both");
      }
    }
  }

  /**
   * The script before on the store's key, with the ARGV agents before sent: today's less the
   * last, p (which that script made itself).
   */
  private static List<Object> callBefore(
      RedisGcraStore store, String key, String op, long amount) {
    String[] argv = store.decideArgv(amount);
    argv[0] = op;
    argv = Arrays.copyOf(argv, argv.length - 1);
    List<Object> reply =
        backend.eval(BEFORE, store.ruleKey(key),
            RedisAlgorithmStore.budgetsArgv(op, argv[1], argv[2], store, argv));
    return RedisAlgorithmStore.replyOf(reply, 0, BEFORE);
  }
}
