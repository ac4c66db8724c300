package io.tollgate.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.tollgate.stores.redis.RedisScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;

/**
 * What several token-bucket decisions in one {@code EVALSHA} would save the client and Redis per
 * decision (h-batch, step 1: the potential, before any coalescer is built). A closed loop of
 * {@code threads} threads on one shared Lettuce connection, each sending, one after another, either
 * {@link RedisScript#GCRA} for one decision (batch=1, as the agent does today) or {@link
 * #batchScript} for {@code batch} decisions at once, each on a random one of 10,000 keys,
 * with the arguments the agent sends (benchmarks/results/redis-script-cost/evalsha-sent-h-lua.txt).
 * Raw Lettuce on both sides, so that the difference is the batching's alone, not the agent's
 * deadlines and ledger. Rounds alternate the batch sizes given, in one JVM (warmed up first).
 *
 * <p>batch=0 is natural batching, a prototype of the coalescer (not the agent's): each thread
 * sends one decision and waits for its own verdict, as a request thread would; while a call is in
 * flight the decisions that come are queued, and when it is answered all queued go out as one call
 * of the batch script (at most 64; a lone decision goes out at once). Each waiting thread is woken
 * by itself, so this counts the per-decision wake-ups that a thread per decision keeps paying.
 *
 * <p>Arguments: {@code uri} (redis://127.0.0.1:6379), {@code threads} (32), {@code batches} (1,4,8),
 * {@code rounds} (3), {@code seconds} (4). Prints per run: decisions per second, this JVM's CPU
 * per decision (the client: callers, Netty, JIT, GC) and redis-server's (INFO cpu), EVALSHAs per
 * decision.
 */
public final class RedisBatchPotential {

  static final String[] PARAMS = {
    "10000000", "10000000", "1000", "100", "0", "1000000000", "0", "0", "10000000", "1000001",
    "1000000000", "10000001", "caller1", "1000:1000000000:10000000:1000000000:0"
  };
  static final int KEYS = 10_000;

  public static void main(String[] args) throws Exception {
    var options = RedisThroughputDriver.parse(args);
    String uri = options.getOrDefault("uri", "redis://127.0.0.1:6379");
    int threads = Integer.parseInt(options.getOrDefault("threads", "32"));
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
    double seconds = Double.parseDouble(options.getOrDefault("seconds", "4"));
    List<Integer> batches = new ArrayList<>();
    for (String b : options.getOrDefault("batches", "1,4,8").split(",")) {
      batches.add(Integer.parseInt(b));
    }
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> connection = client.connect();
        StatefulRedisConnection<String, String> stats = client.connect()) {
      RedisCommands<String, String> sync = connection.sync();
      String single = sync.scriptLoad(RedisScript.GCRA.body());
      String batch = sync.scriptLoad(batchScript());
      for (int b : batches) {
        run(connection, stats, b == 1 ? single : batch, b, threads, 2, false);
      }
      for (int r = 1; r <= rounds; r++) {
        for (int b : batches) {
          System.out.println("round=" + r + " " + run(connection, stats, b == 1 ? single : batch, b, threads, seconds, true));
        }
      }
    } finally {
      client.shutdown(0, 2, TimeUnit.SECONDS);
    }
  }

  static String run(StatefulRedisConnection<String, String> connection,
      StatefulRedisConnection<String, String> stats, String sha, int n, int threads, double seconds,
      boolean report) throws InterruptedException {
    long calls0 = evalshaCalls(stats.sync().info("commandstats"));
    double server0 = RedisThroughputDriver.serverCpuSeconds(stats.sync().info("cpu"));
    long client0 = RedisThroughputDriver.processCpuNanos();
    Coalescer coalescer = new Coalescer(connection, sha);
    long[] decided = new long[threads];
    long[] failed = new long[threads];
    CountDownLatch start = new CountDownLatch(1);
    Thread[] workers = new Thread[threads];
    RedisThroughputDriver.Stop.requested = false;
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers[t] = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(7 + id);
        RedisCommands<String, String> sync = connection.sync();
        String[] keys = new String[Math.max(n, 1)];
        String[] values = n <= 1 ? new String[20] : new String[21 * n];
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        while (!RedisThroughputDriver.Stop.requested && n == 0) {
          try {
            coalescer.decide("tollgate:v2:{bench:" + random.nextInt(KEYS) + "}:token-bucket")
                .get(2, TimeUnit.SECONDS);
            decided[id]++;
          } catch (Exception e) {
            failed[id]++;
          }
        }
        while (!RedisThroughputDriver.Stop.requested) {
          int at = 0;
          for (int i = 0; i < n; i++) {
            keys[i] = "tollgate:v2:{bench:" + random.nextInt(KEYS) + "}:token-bucket";
            at = putDecision(values, at, n > 1);
          }
          try {
            List<Object> reply = sync.evalsha(sha, ScriptOutputType.MULTI, keys, values);
            if (reply.size() != (n == 1 ? 7 : 8 * n)) {
              throw new IllegalStateException("unexpected reply " + reply);
            }
            decided[id] += n;
          } catch (RuntimeException e) {
            failed[id]++;
          }
        }
      });
      workers[t].start();
    }
    long begin = System.nanoTime();
    start.countDown();
    TimeUnit.NANOSECONDS.sleep((long) (seconds * 1e9));
    RedisThroughputDriver.Stop.requested = true;
    for (Thread w : workers) {
      w.join();
    }
    double wall = (System.nanoTime() - begin) / 1e9;
    long clientCpu = RedisThroughputDriver.processCpuNanos() - client0;
    double serverCpu = RedisThroughputDriver.serverCpuSeconds(stats.sync().info("cpu")) - server0;
    long calls = evalshaCalls(stats.sync().info("commandstats")) - calls0;
    long decisions = 0;
    long failures = 0;
    for (int t = 0; t < threads; t++) {
      decisions += decided[t];
      failures += failed[t];
    }
    return String.format(Locale.ROOT,
        "batch=%s threads=%d decisions_per_second=%d client_cpu_us_per_decision=%.2f"
            + " server_cpu_us_per_decision=%.2f evalsha_per_decision=%.4f failed=%d",
        n == 0 ? "natural" : String.valueOf(n), threads, Math.round(decisions / wall), clientCpu / 1e3 / decisions,
        serverCpu * 1e6 / decisions, (double) calls / decisions, failures);
  }

  /** The prototype of natural batching (batch=0): see the class comment. */
  static final class Coalescer {
    private final io.lettuce.core.api.async.RedisAsyncCommands<String, String> async;
    private final String sha;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean inFlight = new AtomicBoolean();

    record Pending(String key, CompletableFuture<List<Object>> verdict) {}

    Coalescer(StatefulRedisConnection<String, String> connection, String sha) {
      this.async = connection.async();
      this.sha = sha;
    }

    CompletableFuture<List<Object>> decide(String key) {
      Pending pending = new Pending(key, new CompletableFuture<>());
      queue.add(pending);
      sendIfFree();
      return pending.verdict();
    }

    /** Sends what is queued as one call unless one is in flight (its answer sends the next). */
    private void sendIfFree() {
      while (!queue.isEmpty() && inFlight.compareAndSet(false, true)) {
        List<Pending> batch = new ArrayList<>();
        for (Pending p; batch.size() < 64 && (p = queue.poll()) != null; ) {
          batch.add(p);
        }
        if (batch.isEmpty()) {
          inFlight.set(false);
          continue;
        }
        String[] keys = new String[batch.size()];
        String[] values = new String[21 * batch.size()];
        int at = 0;
        for (int i = 0; i < keys.length; i++) {
          keys[i] = batch.get(i).key();
          at = putDecision(values, at, true);
        }
        async.<List<Object>>evalsha(sha, ScriptOutputType.MULTI, keys, values)
            .whenComplete((reply, failure) -> {
              int pos = 0;
              for (Pending p : batch) {
                if (failure != null) {
                  p.verdict().completeExceptionally(failure);
                  continue;
                }
                int len = ((Number) reply.get(pos)).intValue();
                p.verdict().complete(reply.subList(pos + 1, pos + 1 + len));
                pos += 1 + len;
              }
              inFlight.set(false);
              sendIfFree();
            });
        return;
      }
    }
  }

  /**
   * The agent's script of one call made the function of one decision, and {@code batch.lua} (the
   * agent's) calling it for each decision sent: common.lua, gcra.lua as {@code
   * decide_budget}, budgets.lua as {@code decide_rule}, assembled as RedisScript.overBudgets does.
   */
  static String batchScript() throws java.io.IOException {
    return resource("io/tollgate/stores/redis/common.lua")
        + "\nlocal function decide_budget(KEYS, ARGV)\n" + resource("io/tollgate/stores/redis/gcra.lua")
        + "\nend\nlocal function decide_rule(KEYS, ARGV)\n"
        + resource("io/tollgate/stores/redis/budgets.lua") + "\nend\n"
        + resource("io/tollgate/stores/redis/batch.lua");
  }

  static String resource(String path) throws java.io.IOException {
    try (var in = RedisBatchPotential.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  static long evalshaCalls(String info) {
    Long calls = RedisThroughputDriver.commandCalls(info).get("evalsha");
    return calls == null ? 0 : calls;
  }

  private RedisBatchPotential() {}

  /**
   * One decision's ARGV as budgets.lua reads it, from {@code at}: in a batch (batch.lua) after its
   * length (20); returns where the next begins.
   */
  private static int putDecision(String[] values, int at, boolean inBatch) {
    if (inBatch) {
      values[at++] = "20";
    }
    values[at++] = "decide";
    values[at++] = "";
    values[at++] = "1";
    values[at++] = "1";
    values[at++] = "";
    values[at++] = "14";
    for (String p : PARAMS) {
      values[at++] = p;
    }
    return at;
  }
}
