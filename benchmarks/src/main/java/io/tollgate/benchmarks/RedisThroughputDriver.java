package io.tollgate.benchmarks;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisConnectionSettings;
import io.tollgate.stores.redis.RedisAlgorithmStore;
import io.tollgate.stores.redis.RedisBudgetGroup;
import io.tollgate.stores.redis.RedisKeys;
import io.tollgate.stores.redis.RedisScript;
import io.tollgate.stores.redis.RedisGcraStore;
import io.tollgate.stores.redis.RefusalCacheStore;
import io.tollgate.stores.LimiterStore;
import io.tollgate.limiters.Clock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Redis-mode throughput: a closed loop of N caller threads, each making one rate-limit decision after
 * another through a shared store, as N request threads of an application would. Run by {@code
 * benchmarks/run-redis.sh}, which alternates it with {@code redis-benchmark} running the same
 * script at the same concurrency.
 *
 * <p>Sides:
 *
 * <ul>
 *   <li>{@code tollgate}: {@link RedisGcraStore#decide} over one {@link RedisBackend} (one
 *       Lettuce connection shared by all threads, each thread waiting for its own reply), exactly as
 *       the agent builds a {@code backend: redis} rule.
 *   <li>{@code bucket4j}: Bucket4j's Lettuce proxy manager ({@code Bucket4jLettuce.casBasedBuilder},
 *       the only Lettuce integration of Bucket4j 8.14: read the state with GET, compute on the
 *       client, write it back with a compare-and-swap Lua script, retry on conflict), on one shared
 *       Lettuce connection too, {@code proxyManager.builder().build(key, config).tryConsume(1)}.
 * </ul>
 *
 * <p>Workloads: {@code many-keys} (each decision on a random one of {@code keys} keys; a bucket that
 * never refuses), {@code hot-key} (every decision on one key; never refuses), {@code
 * hot-key-refused} (one key, 1 per hour: all but the first decision refused).
 *
 * <p>A warm-up phase runs first; then the threads are stopped and joined, {@code INFO
 * commandstats} is read, the measured phase runs, the threads are joined again and the statistics
 * read again. Every thread's last call has returned by then, so the Redis commands counted belong
 * to exactly the decisions counted: EVALSHA per Tollgate decision is exact, not a rate estimate.
 * The CPU time of this JVM and of redis-server over the measured phase are given per decision too:
 * unlike decisions per second, they do not count time spent waiting for a core on a busy machine.
 *
 * <p>With {@code serve=true}, the driver reads one run's arguments per line of standard input and
 * answers each with its output and a line {@code END}: one JVM serves every run of its side.
 *
 * <p>Mode {@code probe} makes one Tollgate decision of each bucket shape and exits; the script
 * watches it with {@code MONITOR} to give {@code redis-benchmark} the very command Tollgate sends.
 *
 * <p>Arguments, {@code name=value}: {@code side}, {@code workload}, {@code threads}, {@code warmup}
 * and {@code duration} (seconds), {@code uri} (default {@code redis://127.0.0.1:6379}), {@code
 * keys} (default 100000), {@code fill} (default true: decide once on every key first; the script
 * passes false when an earlier run of the same workload filled them). Prints one result line of {@code name=value} pairs, starting with
 * {@code RESULT}.
 */
public final class RedisThroughputDriver {

  /**
   * Never reached: 10,000,000 per 1,000 s, burst as large (a whole script run spends a few million
   * tokens at most). Its keys live 1,000 s after each write (idleNanosUntilFresh), so the keys
   * filled before the first run of a workload still exist in its last.
   */
  static final LimitSpec NEVER_REFUSES =
      new LimitSpec(10_000_000L, TimeUnit.SECONDS.toNanos(1_000), 10_000_000L);
  /** One request per hour: after the first, every decision on the key is refused. */
  static final LimitSpec ONE_PER_HOUR = LimitSpec.of(1, TimeUnit.HOURS.toNanos(1));

  static final String RULE_ALLOWING = "bench";
  static final String RULE_REFUSING = "bench-refuse";
  static final String HOT_KEY = "hot";

  /** One decision on the key at {@code index}; true when allowed. */
  interface Decider {
    boolean decide(int index);
  }

  /** Makes one {@link Decider} per thread (each Tollgate thread owns its {@link Verdict}). */
  interface Side extends AutoCloseable {
    Decider newDecider();

    /** Client round trips in a window, from the server's command counts (see the implementations). */
    double roundTrips(Map<String, Long> delta);

    @Override
    void close();
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = parse(args);
    if (required(options, "side").equals("probe")) {
      probe(options.getOrDefault("uri", "redis://127.0.0.1:6379"));
      return;
    }
    if (required(options, "side").equals("script")) {
      // The exact script the agent sends (common.lua, gcra.lua and budgets.lua), for
      // redis-benchmark's SCRIPT LOAD; no newline is added.
      System.out.print(RedisScript.GCRA.body());
      System.out.flush();
      return;
    }
    if (!Boolean.parseBoolean(options.getOrDefault("serve", "false"))) {
      run(options);
      return;
    }
    // Serve: one run per line of standard input (name=value pairs added to the arguments), each
    // followed by a line END, until the input ends. The script keeps one JVM per side this way, so
    // that the JIT's warm-up is paid once, not in every run, while the sides still alternate.
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      Map<String, String> request = new HashMap<>(options);
      request.putAll(parse(line.trim().split("\\s+")));
      try {
        run(request);
      } catch (Exception e) {
        System.out.println("ERROR " + e);
      }
      System.out.println("END");
      System.out.flush();
    }
  }

  static void run(Map<String, String> options) throws Exception {
    String uri = options.getOrDefault("uri", "redis://127.0.0.1:6379");
    String sideName = required(options, "side");
    String workload = required(options, "workload");
    int threads = Integer.parseInt(required(options, "threads"));
    double warmup = Double.parseDouble(options.getOrDefault("warmup", "3"));
    double duration = Double.parseDouble(options.getOrDefault("duration", "5"));
    int keyCount = workload.equals("many-keys") ? Integer.parseInt(options.getOrDefault("keys", "100000")) : 1;
    boolean refusing = switch (workload) {
      case "many-keys", "hot-key" -> false;
      case "hot-key-refused" -> true;
      default -> throw new IllegalArgumentException("workload: many-keys, hot-key or hot-key-refused");
    };
    String[] keys = new String[keyCount];
    if (keyCount == 1) {
      keys[0] = HOT_KEY;
    } else {
      for (int i = 0; i < keyCount; i++) {
        keys[i] = "client-" + i;
      }
    }

    RedisClient statsClient = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> stats = statsClient.connect();
        Side side = switch (sideName) {
          case "tollgate" -> new TollgateSide(uri, keys, refusing, false);
          // The same store behind the rules file's "refusal-cache: true" (RefusalCacheStore).
          case "tollgate-refusal-cache" -> new TollgateSide(uri, keys, refusing, true);
          // A rule of three limits (a second, an hour, a day), decided together in one script.
          case "tollgate-3-limits" -> new TollgateGroupSide(uri, keys, refusing);
          case "bucket4j" -> new Bucket4jSide(uri, keys, refusing);
          default -> throw new IllegalArgumentException(
              "side: tollgate, tollgate-refusal-cache, tollgate-3-limits, bucket4j, probe or"
                  + " script");
        }) {
      if (keyCount > 1 && Boolean.parseBoolean(options.getOrDefault("fill", "true"))) {
        fill(side, keyCount);
      }
      Phase warm = Phase.run(side, threads, keyCount, warmup);
      Map<String, Long> before = commandCalls(stats.sync().info("commandstats"));
      double serverCpuBefore = serverCpuSeconds(stats.sync().info("cpu"));
      long clientCpuBefore = processCpuNanos();
      Phase measured = Phase.run(side, threads, keyCount, duration);
      long clientCpu = processCpuNanos() - clientCpuBefore;
      double serverCpu = serverCpuSeconds(stats.sync().info("cpu")) - serverCpuBefore;
      Map<String, Long> after = commandCalls(stats.sync().info("commandstats"));
      Map<String, Long> delta = new HashMap<>();
      for (Map.Entry<String, Long> entry : after.entrySet()) {
        long d = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
        if (d != 0 && !entry.getKey().equals("info")) {
          delta.put(entry.getKey(), d);
        }
      }
      long decisions = measured.allowed + measured.refused;
      double perDecision = decisions == 0 ? Double.NaN : 1.0 / decisions;
      StringBuilder line = new StringBuilder("RESULT");
      line.append(" side=").append(sideName)
          .append(" workload=").append(workload)
          .append(" threads=").append(threads)
          .append(" keys=").append(keyCount)
          .append(" seconds=").append(format(measured.seconds, 3))
          .append(" decisions=").append(decisions)
          .append(" per_second=").append(Math.round(decisions / measured.seconds))
          .append(" allowed=").append(measured.allowed)
          .append(" refused=").append(measured.refused)
          .append(" failed=").append(measured.failed + warm.failed)
          .append(" round_trips_per_decision=").append(format(side.roundTrips(delta) * perDecision, 4))
          .append(" client_cpu_us_per_decision=").append(format(clientCpu / 1e3 * perDecision, 2))
          .append(" server_cpu_us_per_decision=").append(format(serverCpu * 1e6 * perDecision, 2));
      for (String command : List.of("evalsha", "eval", "get", "set", "psetex", "hmget", "hset")) {
        line.append(' ').append(command).append("_per_decision=")
            .append(format(delta.getOrDefault(command, 0L) * perDecision, 4));
      }
      System.out.println(line);
      System.out.println("commands in the measured phase: " + delta);
      if (measured.firstFailure != null || warm.firstFailure != null) {
        System.out.println("first failure: " + (measured.firstFailure != null ? measured.firstFailure : warm.firstFailure));
      }
    } finally {
      statsClient.shutdown(0, 2, TimeUnit.SECONDS);
    }
  }

  /**
   * Every key exists before measuring, as in section 1: one decision per key, on 32 threads
   * whatever the run's thread count (not measured), so that the measured decisions all find an
   * existing bucket rather than a mix of new and old ones that would depend on the rate.
   */
  static void fill(Side side, int keyCount) throws InterruptedException {
    int fillers = 32;
    Thread[] workers = new Thread[fillers];
    long[] failed = new long[fillers];
    for (int t = 0; t < fillers; t++) {
      int id = t;
      Decider decider = side.newDecider();
      workers[t] = new Thread(() -> {
        for (int i = id; i < keyCount; i += fillers) {
          try {
            decider.decide(i);
          } catch (RuntimeException e) {
            failed[id]++;
          }
        }
      }, "filler-" + t);
      workers[t].start();
    }
    long failures = 0;
    for (int t = 0; t < fillers; t++) {
      workers[t].join();
      failures += failed[t];
    }
    if (failures > 0) {
      throw new IllegalStateException(failures + " decisions failed while filling the keys");
    }
  }

  /** One decision of each bucket shape on the key "probe", for the script's MONITOR. */
  static void probe(String uri) {
    try (TollgateSide allowing = new TollgateSide(uri, new String[] {"probe"}, false, false);
        TollgateSide refusing = new TollgateSide(uri, new String[] {"probe"}, true, false)) {
      allowing.newDecider().decide(0);
      refusing.newDecider().decide(0);
      System.out.println("probe " + RedisKeys.bucketKey(RULE_ALLOWING, "token-bucket", "probe") + " "
          + RedisKeys.bucketKey(RULE_REFUSING, "token-bucket", "probe"));
    }
  }

  /**
   * A {@code backend: redis} rule of three limits, as the agent builds it: a {@link
   * RedisBudgetGroup} of three token buckets (the first one never reached, or one an hour, as
   * {@link TollgateSide}'s; then a day's and a week's that never refuse), one {@code EVALSHA} of
   * the three per decision.
   */
  static final class TollgateGroupSide implements Side {
    private final RedisBackend backend;
    private final RedisBudgetGroup group;
    private final String[] keys;

    TollgateGroupSide(String uri, String[] keys, boolean refusing) {
      this.backend =
          RedisBackend.connect(RedisConnectionSettings.uri(uri).withTimeout(Duration.ofSeconds(2)));
      if (!backend.awaitConnected(Duration.ofSeconds(10))) {
        throw new IllegalStateException("tollgate: no connection to " + uri);
      }
      String rule = refusing ? RULE_REFUSING + "-3" : RULE_ALLOWING + "-3";
      LimitSpec[] specs = {
        refusing ? ONE_PER_HOUR : NEVER_REFUSES,
        new LimitSpec(10_000_000L, TimeUnit.DAYS.toNanos(1), 10_000_000L),
        new LimitSpec(50_000_000L, TimeUnit.DAYS.toNanos(7), 50_000_000L)
      };
      String[] periods = {"a", "b", "c"};
      List<RedisAlgorithmStore> budgets = new java.util.ArrayList<>();
      for (int i = 0; i < specs.length; i++) {
        budgets.add(
            RedisAlgorithmStore.ofBudget(
                backend, rule, rule + "/" + periods[i], "", periods[i], new TokenBucket(specs[i])));
      }
      this.group = new RedisBudgetGroup(budgets, (budget, member) -> member);
      this.keys = keys;
    }

    @Override
    public Decider newDecider() {
      Verdict[] verdicts = {new Verdict(), new Verdict(), new Verdict()};
      return index -> {
        group.decideAll(keys[index], 1, verdicts);
        return verdicts[0].allowed && verdicts[1].allowed && verdicts[2].allowed;
      };
    }

    @Override
    public double roundTrips(Map<String, Long> delta) {
      return delta.getOrDefault("evalsha", 0L) + delta.getOrDefault("eval", 0L);
    }

    @Override
    public void close() {
      backend.close();
    }
  }

  /** Tollgate's Redis store, built as the agent builds it for a {@code backend: redis} rule. */
  static final class TollgateSide implements Side {
    private final RedisBackend backend;
    private final LimiterStore store;
    private final String[] keys;

    TollgateSide(String uri, String[] keys, boolean refusing, boolean refusalCache) {
      // A generous timeout: this measures throughput, and on a shared 2-core machine a 50 ms
      // deadline (the default) would turn scheduling stalls into failures. Failures are counted.
      this.backend =
          RedisBackend.connect(RedisConnectionSettings.uri(uri).withTimeout(Duration.ofSeconds(2)));
      if (!backend.awaitConnected(Duration.ofSeconds(10))) {
        throw new IllegalStateException("tollgate: no connection to " + uri);
      }
      TokenBucket bucket = new TokenBucket(refusing ? ONE_PER_HOUR : NEVER_REFUSES);
      RedisGcraStore shared =
          new RedisGcraStore(backend, refusing ? RULE_REFUSING : RULE_ALLOWING, bucket);
      this.store =
          refusalCache ? new RefusalCacheStore(shared, Clock.system(), 1_000_000) : shared;
      this.keys = keys;
    }

    @Override
    public Decider newDecider() {
      Verdict verdict = new Verdict();
      return index -> {
        store.decide(keys[index], 1, verdict);
        return verdict.allowed;
      };
    }

    /** Tollgate sends EVALSHA, and EVAL only after NOSCRIPT; the script's own calls are not sent. */
    @Override
    public double roundTrips(Map<String, Long> delta) {
      return delta.getOrDefault("evalsha", 0L) + delta.getOrDefault("eval", 0L);
    }

    @Override
    public void close() {
      backend.close();
    }
  }

  /** Bucket4j's Lettuce proxy manager, with the same bucket shape and key lifetime as Tollgate's. */
  static final class Bucket4jSide implements Side {
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final LettuceBasedProxyManager<byte[]> proxyManager;
    private final BucketConfiguration configuration;
    private final byte[][] keys;

    Bucket4jSide(String uri, String[] keys, boolean refusing) {
      this.client = RedisClient.create(uri);
      this.connection = client.connect(ByteArrayCodec.INSTANCE);
      // Keys live as long as Tollgate's do (TokenBucket.idleNanosUntilFresh: 10 s, 1 h) after each
      // write. Bucket4j's other strategy, basedOnTimeForRefillingBucketUpToMax, would give this
      // never-refusing bucket a TTL of microseconds, so its keys would vanish between requests.
      Duration ttl =
          Duration.ofNanos(new TokenBucket(refusing ? ONE_PER_HOUR : NEVER_REFUSES).idleNanosUntilFresh());
      this.proxyManager =
          Bucket4jLettuce.casBasedBuilder(connection)
              .expirationAfterWrite(ExpirationAfterWriteStrategy.fixedTimeToLive(ttl))
              .requestTimeout(Duration.ofSeconds(2))
              .build();
      Bandwidth bandwidth =
          refusing
              ? Bandwidth.builder().capacity(1).refillIntervally(1, Duration.ofHours(1)).build()
              : Bandwidth.builder()
                  .capacity(NEVER_REFUSES.burst())
                  .refillGreedy(NEVER_REFUSES.limit(), Duration.ofNanos(NEVER_REFUSES.periodNanos()))
                  .build();
      this.configuration = BucketConfiguration.builder().addLimit(bandwidth).build();
      String prefix = "bucket4j:" + (refusing ? RULE_REFUSING : RULE_ALLOWING) + ":";
      this.keys = new byte[keys.length][];
      for (int i = 0; i < keys.length; i++) {
        this.keys[i] = (prefix + keys[i]).getBytes(StandardCharsets.UTF_8);
      }
    }

    @Override
    public Decider newDecider() {
      return index -> proxyManager.builder().build(keys[index], () -> configuration).tryConsume(1);
    }

    /**
     * Bucket4j sends a GET per attempt, then (when the state changed) an EVAL of a compare-and-swap
     * script that itself calls GET and PSETEX, or, for a new key, a second GET and an EVAL of a
     * script that calls SET NX PX (as MONITOR shows). The server counts the scripts' calls with the
     * client's, so: GETs sent = get - CAS scripts = get - (eval - set), and round trips = GETs sent
     * + EVALs = get + set.
     */
    @Override
    public double roundTrips(Map<String, Long> delta) {
      return delta.getOrDefault("get", 0L) + delta.getOrDefault("set", 0L);
    }

    @Override
    public void close() {
      connection.close();
      client.shutdown(0, 2, TimeUnit.SECONDS);
    }
  }

  /** One phase of the closed loop: every thread decides until told to stop, then all are joined. */
  static final class Phase {
    long allowed;
    long refused;
    long failed;
    double seconds;
    String firstFailure;

    static Phase run(Side side, int threads, int keyCount, double seconds) throws InterruptedException {
      CountDownLatch start = new CountDownLatch(1);
      long[][] counts = new long[threads][3];
      String[] failures = new String[threads];
      Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int id = t;
        Decider decider = side.newDecider();
        SplittableRandom random = new SplittableRandom(42 + t);
        workers[t] = new Thread(() -> {
          long[] c = counts[id];
          try {
            start.await();
          } catch (InterruptedException e) {
            return;
          }
          while (!Stop.requested) {
            int index = keyCount == 1 ? 0 : random.nextInt(keyCount);
            try {
              if (decider.decide(index)) {
                c[0]++;
              } else {
                c[1]++;
              }
            } catch (RuntimeException e) {
              c[2]++;
              if (failures[id] == null) {
                failures[id] = e.toString();
              }
            }
          }
        }, "decider-" + t);
        workers[t].start();
      }
      Stop.requested = false;
      long begin = System.nanoTime();
      start.countDown();
      TimeUnit.NANOSECONDS.sleep((long) (seconds * 1e9));
      Stop.requested = true;
      for (Thread worker : workers) {
        worker.join();
      }
      Phase phase = new Phase();
      phase.seconds = (System.nanoTime() - begin) / 1e9;
      for (int t = 0; t < threads; t++) {
        phase.allowed += counts[t][0];
        phase.refused += counts[t][1];
        phase.failed += counts[t][2];
        if (phase.firstFailure == null) {
          phase.firstFailure = failures[t];
        }
      }
      return phase;
    }
  }

  /** The stop flag, volatile so that every thread sees it at its next decision. */
  static final class Stop {
    static volatile boolean requested;
  }

  /**
   * CPU time of this whole JVM (callers, Netty, JIT, GC): what the client side costs, which waiting
   * for a core on a busy machine does not inflate.
   */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** redis-server's own CPU time so far (used_cpu_user + used_cpu_sys of INFO cpu), in seconds. */
  static double serverCpuSeconds(String info) {
    double seconds = 0;
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
        seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return seconds;
  }

  /** "cmdstat_evalsha:calls=12,usec=..." lines to {evalsha=12, ...}. */
  static Map<String, Long> commandCalls(String info) {
    Map<String, Long> calls = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      if (!line.startsWith("cmdstat_")) {
        continue;
      }
      int colon = line.indexOf(':');
      int start = line.indexOf("calls=", colon) + "calls=".length();
      int end = line.indexOf(',', start);
      calls.put(line.substring("cmdstat_".length(), colon), Long.parseLong(line.substring(start, end)));
    }
    return calls;
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("expected name=value: " + arg);
      }
      options.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return options;
  }

  static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing " + name + "=...");
    }
    return value;
  }

  static String format(double value, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  private RedisThroughputDriver() {}
}
