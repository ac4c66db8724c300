package io.tollgate.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LocalLimiterStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Heap held per tracked key, and heap under a flood of distinct keys. Not a JMH benchmark: a plain
 * program, run with a fixed heap, e.g.
 *
 * <pre>
 * java -Xms2g -Xmx2g -XX:+UseG1GC -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.MemoryPerKey
 * </pre>
 *
 * <p>Per key: the key strings are created first and stay referenced from an array for the whole
 * measurement, so that the heap difference "store filled" minus "keys only" is what the store holds
 * beside the keys. The keys' own size is measured too (heap with keys minus heap without) and
 * compared with the size computed from the String layout, as a check of the method.
 *
 * <p>Flood: 10,000,000 distinct keys through a store with max-keys 100,000; the heap after a full GC
 * is printed every 1,000,000 keys and must stay flat.
 *
 * <p>Arguments (all optional): {@code keys=1000000 flood=10000000 floodMaxKeys=100000}.
 */
public final class MemoryPerKey {

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private MemoryPerKey() {}

  public static void main(String[] args) throws Exception {
    int keys = 1_000_000;
    long flood = 10_000_000L;
    long floodMaxKeys = 100_000L;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "keys" -> keys = Integer.parseInt(kv[1]);
        case "flood" -> flood = Long.parseLong(kv[1]);
        case "floodMaxKeys" -> floodMaxKeys = Long.parseLong(kv[1]);
        default -> throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    System.out.printf(
        "JVM %s %s, max heap %d MiB, GC %s%n",
        System.getProperty("java.vm.name"),
        Runtime.version(),
        Runtime.getRuntime().maxMemory() >> 20,
        ManagementFactory.getGarbageCollectorMXBeans().get(0).getName());

    perKey(keys);
    flood(flood, floodMaxKeys);
  }

  /** 100 per minute, a typical per-client rule; no key goes idle long enough to expire here. */
  private static LimitSpec typicalSpec() {
    return LimitSpec.of(100, TimeUnit.MINUTES.toNanos(1));
  }

  private static void perKey(int keys) throws Exception {
    System.out.printf("%n== Bytes per key, %,d distinct keys ==%n", keys);
    long empty = usedAfterGc();
    String[] names = new String[keys];
    long computedKeyBytes = 0;
    for (int i = 0; i < keys; i++) {
      names[i] = "client-" + i;
      computedKeyBytes += stringBytes(names[i]);
    }
    long withKeys = usedAfterGc();
    // The array of references is in the measured difference; take it out of the keys' share.
    long arrayBytes = align(16 + 4L * keys);
    System.out.printf(
        "key strings (e.g. \"%s\", Latin-1): measured %.1f B/key, computed %.1f B/key%n",
        names[keys / 2],
        (double) (withKeys - empty - arrayBytes) / keys,
        (double) computedKeyBytes / keys);

    // Tollgate, as RuleSetFactory builds it: max-keys above the key count, so nothing is evicted.
    TokenBucket bucket = new TokenBucket(typicalSpec());
    LocalLimiterStore<TokenBucket.State> store =
        new LocalLimiterStore<>(bucket, Clock.system(), keys);
    Verdict verdict = new Verdict();
    for (String key : names) {
      store.decide(key, 1, verdict);
    }
    store.cleanUp();
    long withStore = usedAfterGc();
    check(store.estimatedKeys() == keys, "store holds " + store.estimatedKeys() + " keys");
    double tollgatePerKey = (double) (withStore - withKeys) / keys;
    System.out.printf(
        "Tollgate LocalLimiterStore<TokenBucket>: %.1f B/key beside the key (%.1f B/key with it)%n",
        tollgatePerKey, tollgatePerKey + (double) computedKeyBytes / keys);
    reachabilityFence(store);
    store = null;
    long afterDrop = usedAfterGc();

    // The peer a user would write: Caffeine<String, Bucket4j Bucket>, same bounds and expiry.
    Bandwidth bandwidth =
        Bandwidth.builder().capacity(100).refillGreedy(100, Duration.ofMinutes(1)).build();
    Cache<String, Bucket> buckets =
        Caffeine.newBuilder()
            .maximumSize(keys)
            .expireAfterAccess(Duration.ofNanos(bucket.idleNanosUntilFresh()))
            .build();
    for (String key : names) {
      buckets.get(key, k -> Bucket.builder().addLimit(bandwidth).build()).tryConsume(1);
    }
    buckets.cleanUp();
    long withBuckets = usedAfterGc();
    check(buckets.estimatedSize() == keys, "cache holds " + buckets.estimatedSize() + " keys");
    double bucket4jPerKey = (double) (withBuckets - afterDrop) / keys;
    System.out.printf(
        "Caffeine<String, Bucket4j Bucket> (same bounds): %.1f B/key beside the key%n",
        bucket4jPerKey);
    System.out.printf(
        "Tollgate / Bucket4j-in-Caffeine: %.2f; goal <= 128 B/key: %s%n",
        tollgatePerKey / bucket4jPerKey, tollgatePerKey <= 128 ? "met" : "NOT met");
    reachabilityFence(buckets);
    reachabilityFence(names);
  }

  private static void flood(long flood, long maxKeys) throws Exception {
    System.out.printf(
        "%n== Flood: %,d distinct keys through a store with max-keys %,d ==%n", flood, maxKeys);
    TokenBucket bucket = new TokenBucket(typicalSpec());
    LocalLimiterStore<TokenBucket.State> store =
        new LocalLimiterStore<>(bucket, Clock.system(), maxKeys);
    Verdict verdict = new Verdict();
    long before = usedAfterGc();
    System.out.printf(
        "%14s %12s %14s %10s%n", "keys sent", "keys held", "heap after GC", "insert time");
    System.out.printf("%,14d %,12d %,11d KiB %10s%n", 0, 0, before >> 10, "-");
    long step = Math.max(1, flood / 10);
    long insertNanos = 0;
    long start = System.nanoTime();
    long maxHeap = before;
    long firstFull = -1;
    for (long i = 1; i <= flood; i++) {
      store.decide("flood-" + i, 1, verdict);
      if (i % step == 0) {
        insertNanos += System.nanoTime() - start;
        store.cleanUp();
        long used = usedAfterGc();
        maxHeap = Math.max(maxHeap, used);
        if (firstFull < 0) {
          firstFull = used;
        }
        System.out.printf(
            "%,14d %,12d %,11d KiB %8.1f s%n",
            i, store.estimatedKeys(), used >> 10, insertNanos / 1e9);
        start = System.nanoTime();
      }
    }
    long last = usedAfterGc();
    System.out.printf(
        "heap held by the store: %,d KiB after the first %,d keys, %,d KiB at the end, max %,d KiB"
            + " (%.1f B per held key)%n",
        (firstFull - before) >> 10,
        step,
        (last - before) >> 10,
        (maxHeap - before) >> 10,
        (double) (last - before) / Math.max(1, store.estimatedKeys()));
    System.out.printf(
        "insert rate (new key each decision, evicting one): %,.0f keys/s; the key strings"
            + " (\"flood-N\", about %d B each) are part of what the store holds%n",
        flood / (insertNanos / 1e9), stringBytes("flood-" + flood / 2));
    reachabilityFence(store);
  }

  /** Heap in use after full collections, once it has stopped shrinking. */
  static long usedAfterGc() throws InterruptedException {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(50);
      long used = MEMORY.getHeapMemoryUsage().getUsed();
      if (used >= best && i >= 2) {
        return Math.min(best, used);
      }
      best = Math.min(best, used);
    }
    return best;
  }

  /**
   * A Latin-1 String on a 64-bit JVM with compressed oops and class pointers: the String (12 B
   * header, hash, value, coder, hashIsZero: 24 B) and its byte[] (16 B header + length, to 8 B).
   */
  static long stringBytes(String s) {
    return 24 + align(16 + s.length());
  }

  static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalStateException(message);
    }
  }

  private static void reachabilityFence(Object o) {
    java.lang.ref.Reference.reachabilityFence(o);
  }
}
