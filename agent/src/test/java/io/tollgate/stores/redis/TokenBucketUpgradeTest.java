package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Gcra;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.testing.redis.RedisServer;
import io.tollgate.testing.redis.RedisServerExtension;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An upgrade keeps every token bucket's count on Redis. Until 0.1.0 the token bucket had a script
 * of its own, {@code token-bucket.lua} (kept as it was under the test resources' {@code legacy/}),
 * beside {@code gcra.lua}; now {@link RedisGcraStore} runs {@code gcra.lua} for both. The old
 * script wrote the same hash ({@code tat}, {@code tatFraction}, and {@code p}, the parameters) under
 * the same key, so no migration is needed: a bucket spent by an agent of 0.1.0 is exactly as spent
 * for the upgraded agent, and agents of both versions can share one Redis during a rolling upgrade.
 * Checked request by request against one {@link TokenBucket} that sees all the traffic.
 */
@ExtendWith(RedisServerExtension.class)
class TokenBucketUpgradeTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);
  private static final long MIN = TimeUnit.MINUTES.toNanos(1);
  private static final long DAY = TimeUnit.DAYS.toNanos(1);

  /** The token bucket's script of 0.1.0, run as the agent ran it (common.lua, budgets.lua). */
  private static final RedisScript BEFORE = RedisScript.overBudgets("legacy/token-bucket-0.1.0.lua");

  private static RedisBackend backend;

  @BeforeAll
  static void connect(RedisServer server) {
    backend = RedisTestSupport.connect(server);
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  @Test
  void aBucketSpentBeforeTheUpgradeStaysSpent() {
    ManualClock clock = new ManualClock(1_764_000_000_000_000_000L);
    TokenBucket bucket = new TokenBucket(LimitSpec.of(5, MIN));
    RedisGcraStore upgraded =
        new RedisGcraStore(backend, RedisTestSupport.uniqueRule("upgrade"), bucket, clock);
    Verdict verdict = new Verdict();
    for (int i = 0; i < 5; i++) {
      decideBefore(upgraded, bucket, clock, "k", 1, verdict);
      assertTrue(verdict.allowed, "0.1.0, request " + i + ": " + verdict);
    }

    upgraded.decide("k", 1, verdict);

    assertFalse(verdict.allowed, "the sixth, after the upgrade: " + verdict);
    assertEquals(0, verdict.remaining);
    assertEquals(12 * S, verdict.retryAfterNanos, "one token back after T = 12 s");
    assertEquals(MIN, verdict.resetNanos, "full again after burst * T");
    assertEquals(
        "token-bucket", upgraded.algorithmName(), "the keys keep their name: " + upgraded.keyOf("k"));
  }

  @Test
  void theBucketKeepsTheUnitItAlwaysCountedIn() {
    // Its keys' p field names the unit: another unit would convert every bucket (as a reload does)
    // and round its retry-after otherwise. gcra, whose rule differs, would count this in µs.
    LimitSpec fiveThousandADay = LimitSpec.of(5000, DAY);
    assertEquals(1L, new TokenBucket(fiveThousandADay).unitNanos());
    assertEquals(1000L, new Gcra(fiveThousandADay).unitNanos());
  }

  /**
   * Random traffic (decisions and cost corrections) on a few keys, each request sent by the old
   * script or the new one: all of the old, then all of the new (an upgrade), or both in turn (a
   * rolling upgrade). The rows include buckets counted in coarser units than the nanosecond, and
   * one (5,000 a day) that {@code gcra} would count in another unit than the token bucket does.
   */
  @ParameterizedTest(name = "{0} per {1} ns, burst {2}: {3}")
  @CsvSource({
    // limit,   period ns,           burst,    how the two versions share the keys
    "5,         60000000000,         5,        upgrade",
    "7,         60000000000,         3,        upgrade",
    "1000,      1000000000,          50,       upgrade",
    "999983,    10000000007,         12345,    upgrade",
    "5000,      86400000000000,      5000,     upgrade",
    "1000000,   86400000000000,      1000000,  upgrade",
    "7,         60000000000,         7,        rolling",
    "3,         7000000000,          10,       rolling",
    "5000,      86400000000000,      5000,     rolling",
    "50000000,  86400000000000,      50000000, rolling",
  })
  void theUpgradedScriptReadsTheOldScriptsBuckets(
      long limit, long periodNanos, long burst, String sharing, RedisServer server) {
    LimitSpec spec = new LimitSpec(limit, periodNanos, burst);
    TokenBucket bucket = new TokenBucket(spec);
    ManualClock clock = new ManualClock(1_764_000_000_123_456_789L + limit);
    String rule = RedisTestSupport.uniqueRule("upgrade");
    RedisGcraStore upgraded = new RedisGcraStore(backend, rule, bucket, clock);
    java.util.Map<String, Gcra.State> reference = new java.util.HashMap<>();
    Random random = new Random(limit * 31 + burst);
    long intervalNanos = Math.max(1, periodNanos / limit);
    Verdict expected = new Verdict();
    Verdict actual = new Verdict();
    int requests = 400;
    for (int i = 0; i < requests; i++) {
      clock.advanceNanos(random.nextInt(4) == 0 ? 0 : (long) (random.nextDouble() * 2 * intervalNanos));
      String key = "k" + random.nextInt(3);
      boolean before = sharing.equals("upgrade") ? i < requests / 2 : i % 2 == 0;
      String where = (before ? "0.1.0" : "upgraded") + ", request " + i + " on " + key;
      Gcra.State state = reference.computeIfAbsent(key, k -> bucket.newState());
      if (random.nextInt(10) == 0) {
        long delta = random.nextInt(5) - 2;
        bucket.adjust(state, clock.nowNanos(), delta);
        if (before) {
          callBefore(upgraded, bucket, clock, key, RedisAlgorithmStore.ADJUST, delta);
        } else {
          upgraded.adjust(key, delta);
        }
      } else {
        long cost = random.nextInt(8) == 0 ? 1 + random.nextInt((int) Math.min(burst + 1, 100)) : 1;
        bucket.decide(state, clock.nowNanos(), cost, expected);
        if (before) {
          decideBefore(upgraded, bucket, clock, key, cost, actual);
        } else {
          upgraded.decide(key, cost, actual);
        }
        assertEquals(expected.allowed, actual.allowed, where + ": " + actual);
        assertEquals(expected.remaining, actual.remaining, where + " remaining");
        assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, where + " retry-after");
        assertEquals(expected.resetNanos, actual.resetNanos, where + " reset");
        assertEquals(expected.nextUnitNanos, actual.nextUnitNanos, where + " next unit");
        assertEquals(0, actual.delayNanos, where + " no delay");
      }
      if (state.tat() > clock.nowNanos() / bucket.unitNanos()) {
        @SuppressWarnings("unchecked")
        List<Object> stored =
            (List<Object>) server.call("HMGET", upgraded.keyOf(key), "tat", "tatFraction");
        assertEquals(Long.toString(state.tat()), stored.get(0), where + " stored tat");
        assertEquals(Long.toString(state.tatFraction()), stored.get(1), where + " tatFraction");
      }
    }
  }

  /** One decision by the 0.1.0 script, read as 0.1.0's RedisLimiterStore read it. */
  private static void decideBefore(
      RedisGcraStore store, TokenBucket bucket, ManualClock clock, String key, long cost,
      Verdict verdict) {
    List<Object> reply = callBefore(store, bucket, clock, key, RedisAlgorithmStore.DECIDE, cost);
    long unit = bucket.unitNanos();
    long remaining = RedisAlgorithmStore.number(reply, 1, BEFORE);
    long retryUnits = RedisAlgorithmStore.number(reply, 2, BEFORE);
    long resetUnits = RedisAlgorithmStore.number(reply, 3, BEFORE);
    if (RedisAlgorithmStore.number(reply, 0, BEFORE) == 1) {
      verdict.allow(remaining, resetUnits * unit, RedisAlgorithmStore.number(reply, 4, BEFORE) * unit);
    } else if (retryUnits < 0) {
      verdict.refuse(remaining, bucket.spec().periodNanos(), resetUnits * unit);
    } else {
      verdict.refuse(remaining, retryUnits * unit, resetUnits * unit);
    }
  }

  /** The 0.1.0 script on the store's key, with the ARGV 0.1.0's RedisLimiterStore sent. */
  private static List<Object> callBefore(
      RedisGcraStore store, TokenBucket bucket, ManualClock clock, String key, String op,
      long amount) {
    LimitSpec spec = bucket.spec();
    long limit = spec.limit();
    long periodUnits = spec.periodNanos() / bucket.unitNanos();
    long toleranceScaled = spec.burst() * periodUnits;
    String[] argv = {
      op,
      Long.toString(clock.nowNanos()),
      Long.toString(amount),
      Long.toString(limit),
      Long.toString(spec.burst()),
      Long.toString(bucket.unitNanos()),
      Long.toString(periodUnits / limit),
      Long.toString(periodUnits % limit),
      Long.toString(toleranceScaled / limit),
      Long.toString(toleranceScaled % limit),
      Long.toString(store.ttlMillis(bucket.idleNanosUntilFresh())),
      Long.toString(periodUnits),
      Long.toString(toleranceScaled / periodUnits + 1)
    };
    List<Object> reply =
        backend.eval(
            BEFORE,
            store.ruleKey(key),
            RedisAlgorithmStore.budgetsArgv(op, argv[1], argv[2], store, argv));
    return RedisAlgorithmStore.replyOf(reply, 0, BEFORE);
  }
}
