package io.tollgate.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the time of one Tollgate decision goes (one key, "allowed"): each benchmark adds one layer
 * of {@code LocalLimiterStore.decide} to the one before, so the differences attribute the cost.
 *
 * <ol>
 *   <li>{@code a_algorithmOnly}: {@code TokenBucket.decide} with a fixed "now" (the arithmetic).
 *   <li>{@code b_nanoTime}: {@code System.nanoTime()} alone.
 *   <li>{@code c_algorithmWithClock}: the arithmetic at {@code Clock.system().nowNanos()}.
 *   <li>{@code d_lockedAlgorithmWithClock}: the same inside {@code synchronized (state)}.
 *   <li>{@code e_caffeineGet}: {@code cache.get(key, f)} on a cache with maximumSize +
 *       expireAfterAccess (the store's configuration before it swept idle keys itself).
 *   <li>{@code f_caffeineGetNoExpiry}: the same cache without {@code expireAfterAccess} (the
 *       store's lookup now, but for its weigher).
 *   <li>{@code g_store}: the whole {@code LocalLimiterStore.decide}.
 *   <li>{@code h_floor}: nanoTime + ConcurrentHashMap.get + one CAS, the physical floor of a keyed
 *       decision (goal B6: a decision within 3x of it).
 * </ol>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class TollgateBreakdownBenchmark {

  private static final long HIGH_LIMIT = 100_000_000L;

  final String key = "client-42";
  final Verdict verdict = new Verdict();
  TokenBucket bucket;
  TokenBucket.State state;
  Clock clock;
  long fixedNow;
  Cache<String, TokenBucket.State> cache;
  Cache<String, TokenBucket.State> cacheNoExpiry;
  Function<String, TokenBucket.State> newState;
  LocalLimiterStore<TokenBucket.State> store;
  ConcurrentHashMap<String, AtomicLong> floorMap;

  @Setup(Level.Trial)
  public void setUp() {
    bucket = new TokenBucket(LimitSpec.of(HIGH_LIMIT, TimeUnit.SECONDS.toNanos(1)));
    state = bucket.newState();
    clock = Clock.system();
    fixedNow = clock.nowNanos();
    newState = k -> bucket.newState();
    cache =
        Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterAccess(Duration.ofNanos(bucket.idleNanosUntilFresh()))
            .build();
    cacheNoExpiry = Caffeine.newBuilder().maximumSize(100_000).build();
    store = new LocalLimiterStore<>(bucket, clock, 100_000);
    floorMap = new ConcurrentHashMap<>();
    floorMap.put(key, new AtomicLong());
  }

  /** A fixed now would run the bucket dry; step it as real time would, by 10 ns a call. */
  @Benchmark
  public boolean a_algorithmOnly() {
    fixedNow += 10;
    bucket.decide(state, fixedNow, 1, verdict);
    return verdict.allowed;
  }

  @Benchmark
  public long b_nanoTime() {
    return System.nanoTime();
  }

  @Benchmark
  public boolean c_algorithmWithClock() {
    bucket.decide(state, clock.nowNanos(), 1, verdict);
    return verdict.allowed;
  }

  @Benchmark
  public boolean d_lockedAlgorithmWithClock() {
    TokenBucket.State s = state;
    synchronized (s) {
      bucket.decide(s, clock.nowNanos(), 1, verdict);
    }
    return verdict.allowed;
  }

  @Benchmark
  public Object e_caffeineGet() {
    return cache.get(key, newState);
  }

  @Benchmark
  public Object f_caffeineGetNoExpiry() {
    return cacheNoExpiry.get(key, newState);
  }

  @Benchmark
  public boolean g_store() {
    store.decide(key, 1, verdict);
    return verdict.allowed;
  }

  @Benchmark
  public long h_floor() {
    long now = System.nanoTime();
    AtomicLong cell = floorMap.get(key);
    long old = cell.get();
    return cell.compareAndSet(old, now) ? now : old;
  }
}
