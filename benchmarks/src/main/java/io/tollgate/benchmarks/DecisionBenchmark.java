package io.tollgate.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One rate-limit decision for a key: Tollgate's {@link LocalLimiterStore} with {@link TokenBucket}
 * against what a user would write with Bucket4j or Resilience4j, side by side in one run.
 *
 * <p>Every variant looks the key up and then decides, as a per-client limit has to:
 *
 * <ul>
 *   <li>{@code none}: picks the key and reads its hash; the harness floor.
 *   <li>{@code caffeineLookup}: the lookup alone, in a Caffeine cache with maximumSize +
 *       expireAfterAccess (Tollgate's store had this configuration until it swept idle keys
 *       itself; bucket4jCaffeine has it): the floor of a limiter kept in such a cache.
 *   <li>{@code tollgate}: {@code LocalLimiterStore.decide(key, 1, verdict)} (size-bounded Caffeine,
 *       idle keys swept by the store itself, a few per decision).
 *   <li>{@code tollgateNoExpiry}: {@link SizeBoundedStorePrototype}, the prototype that led to it:
 *       the store with no expiry at all, kept to show what the sweep costs.
 *   <li>{@code bucket4jCaffeine}: {@code cache.get(key, newBucket).tryConsume(1)}, the same bounded
 *       Caffeine configuration holding Bucket4j local buckets (lock-free, the default).
 *   <li>{@code bucket4jMap}: {@code ConcurrentHashMap.computeIfAbsent(key, newBucket).tryConsume(1)},
 *       the unbounded map most examples show.
 *   <li>{@code resilience4jMap}: {@code ConcurrentHashMap.computeIfAbsent(key, newLimiter)
 *       .acquirePermission()} on {@link AtomicRateLimiter} with a zero timeout.
 * </ul>
 *
 * <p>{@code keys=1}: every thread hits the same key (with 2 threads, the same bucket under
 * contention). {@code keys=100000}: each operation picks a key from a precomputed random index
 * array, so the cost includes cache misses over a realistic table. {@code load=allowed}: limits so
 * high that every decision is "allowed"; {@code load=refused}: one request per hour, so after the
 * first request of each key every decision is "refused". Every key is created in the setup, and
 * none expires during a run: this measures decisions on known keys, not creation or eviction.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class DecisionBenchmark {

  /** A power of two, so that the cursor wraps with a mask. */
  private static final int INDEXES = 1 << 20;

  /**
   * Allowed: 1,000,000,000 per 10 seconds (100 M/s) with a burst of as many, far above what 2 cores
   * can ask. The 10-second period matters as much as the rate: Tollgate forgets a key after the
   * time its bucket takes to refill ({@code idleNanosUntilFresh}, here 10 s), and the caches of the
   * peers use the same expiry. With 100,000 keys on a slow or shared machine, a 1-second period
   * would let keys expire between two visits, and the benchmark would measure cache misses
   * (creating and evicting buckets) instead of decisions.
   */
  private static final long HIGH_LIMIT = 1_000_000_000L;

  private static final Duration HIGH_PERIOD = Duration.ofSeconds(10);

  @Param({"1", "100000"})
  public int keys;

  @Param({"allowed", "refused"})
  public String load;

  String[] keyNames;
  int[] indexes;

  LocalLimiterStore<TokenBucket.State> tollgate;
  SizeBoundedStorePrototype<TokenBucket.State> tollgateNoExpiry;
  Cache<String, Object> lookupOnly;
  Cache<String, Bucket> bucket4jCaffeine;
  ConcurrentHashMap<String, Bucket> bucket4jMap;
  ConcurrentHashMap<String, RateLimiter> resilience4jMap;

  Function<String, Bucket> newBucket;
  Function<String, RateLimiter> newLimiter;
  Function<String, Object> newObject;

  @Setup(Level.Trial)
  public void setUp() {
    boolean allowed = switch (load) {
      case "allowed" -> true;
      case "refused" -> false;
      default -> throw new IllegalArgumentException("load must be allowed or refused: " + load);
    };

    keyNames = new String[keys];
    for (int i = 0; i < keys; i++) {
      keyNames[i] = "client-" + i;
      keyNames[i].hashCode(); // Strings cache their hash; a real key would be hashed once too.
    }
    SplittableRandom random = new SplittableRandom(42);
    indexes = new int[INDEXES];
    for (int i = 0; i < INDEXES; i++) {
      indexes[i] = random.nextInt(keys);
    }

    // Tollgate: exactly as RuleSetFactory builds a local rule's store.
    LimitSpec spec =
        allowed
            ? LimitSpec.of(HIGH_LIMIT, HIGH_PERIOD.toNanos())
            : LimitSpec.of(1, TimeUnit.HOURS.toNanos(1));
    TokenBucket bucket = new TokenBucket(spec);
    // Above 100,000 so that nothing is evicted (this measures decisions, not eviction), and below
    // twice that, so that with 100,000 keys the cache is over half full, as a busy rule's is:
    // Caffeine then records every read for its eviction policy.
    long maxKeys = 131_072;
    tollgate = new LocalLimiterStore<>(bucket, Clock.system(), maxKeys);
    tollgateNoExpiry = new SizeBoundedStorePrototype<>(bucket, Clock.system(), maxKeys);
    Duration idle = Duration.ofNanos(bucket.idleNanosUntilFresh());

    lookupOnly = Caffeine.newBuilder().maximumSize(maxKeys).expireAfterAccess(idle).build();
    newObject = k -> new Object();

    // Bucket4j: the same capacity and refill, lock-free (its default strategy).
    Bandwidth bandwidth =
        allowed
            ? Bandwidth.builder()
                .capacity(HIGH_LIMIT)
                .refillGreedy(HIGH_LIMIT, HIGH_PERIOD)
                .build()
            : Bandwidth.builder().capacity(1).refillIntervally(1, Duration.ofHours(1)).build();
    newBucket = k -> Bucket.builder().addLimit(bandwidth).build();
    bucket4jCaffeine = Caffeine.newBuilder().maximumSize(maxKeys).expireAfterAccess(idle).build();
    bucket4jMap = new ConcurrentHashMap<>();

    // Resilience4j: AtomicRateLimiter, never waiting for a permission.
    RateLimiterConfig config =
        allowed
            ? RateLimiterConfig.custom()
                .limitForPeriod((int) HIGH_LIMIT)
                .limitRefreshPeriod(HIGH_PERIOD)
                .timeoutDuration(Duration.ZERO)
                .build()
            : RateLimiterConfig.custom()
                .limitForPeriod(1)
                .limitRefreshPeriod(Duration.ofHours(1))
                .timeoutDuration(Duration.ZERO)
                .build();
    newLimiter = k -> new AtomicRateLimiter(k, config);
    resilience4jMap = new ConcurrentHashMap<>();

    // Every key exists before measuring (and, when refused, has spent its one request).
    Verdict verdict = new Verdict();
    for (String key : keyNames) {
      tollgate.decide(key, 1, verdict);
      tollgateNoExpiry.decide(key, 1, verdict);
      lookupOnly.get(key, newObject);
      bucket4jCaffeine.get(key, newBucket).tryConsume(1);
      bucket4jMap.computeIfAbsent(key, newBucket).tryConsume(1);
      resilience4jMap.computeIfAbsent(key, newLimiter).acquirePermission();
    }
    tollgate.cleanUp();
    tollgateNoExpiry.cleanUp();
    lookupOnly.cleanUp();
    bucket4jCaffeine.cleanUp();

    // The load is what it says for every peer.
    String key = keyNames[0];
    tollgate.decide(key, 1, verdict);
    check("tollgate", verdict.allowed, allowed);
    tollgateNoExpiry.decide(key, 1, verdict);
    check("tollgateNoExpiry", verdict.allowed, allowed);
    check("bucket4jCaffeine", bucket4jCaffeine.get(key, newBucket).tryConsume(1), allowed);
    check("bucket4jMap", bucket4jMap.computeIfAbsent(key, newBucket).tryConsume(1), allowed);
    check(
        "resilience4jMap",
        resilience4jMap.computeIfAbsent(key, newLimiter).acquirePermission(),
        allowed);
  }

  private static void check(String who, boolean got, boolean expected) {
    if (got != expected) {
      throw new IllegalStateException(
          who + " decided " + (got ? "allowed" : "refused") + " in the setup of a "
              + (expected ? "allowed" : "refused") + " run");
    }
  }

  /** Each thread's own verdict (as each request owns one) and position in the index array. */
  @State(Scope.Thread)
  public static class PerThread {
    final Verdict verdict = new Verdict();
    int cursor;

    @Setup(Level.Trial)
    public void setUp() {
      cursor = new SplittableRandom(System.identityHashCode(this)).nextInt(INDEXES);
    }

    String next(DecisionBenchmark b) {
      int i = cursor;
      cursor = (i + 1) & (INDEXES - 1);
      return b.keyNames[b.indexes[i]];
    }
  }

  /** Picks the key and reads it (its cached hash), as any keyed limiter must. */
  @Benchmark
  public int none(PerThread t) {
    return t.next(this).hashCode();
  }

  @Benchmark
  public Object caffeineLookup(PerThread t) {
    return lookupOnly.get(t.next(this), newObject);
  }

  @Benchmark
  public boolean tollgate(PerThread t) {
    Verdict verdict = t.verdict;
    tollgate.decide(t.next(this), 1, verdict);
    return verdict.allowed;
  }

  /** The recommended fix, prototyped: the same store bounded by size alone (no expiry). */
  @Benchmark
  public boolean tollgateNoExpiry(PerThread t) {
    Verdict verdict = t.verdict;
    tollgateNoExpiry.decide(t.next(this), 1, verdict);
    return verdict.allowed;
  }

  @Benchmark
  public boolean bucket4jCaffeine(PerThread t) {
    return bucket4jCaffeine.get(t.next(this), newBucket).tryConsume(1);
  }

  @Benchmark
  public boolean bucket4jMap(PerThread t) {
    return bucket4jMap.computeIfAbsent(t.next(this), newBucket).tryConsume(1);
  }

  @Benchmark
  public boolean resilience4jMap(PerThread t) {
    return resilience4jMap.computeIfAbsent(t.next(this), newLimiter).acquirePermission();
  }
}
