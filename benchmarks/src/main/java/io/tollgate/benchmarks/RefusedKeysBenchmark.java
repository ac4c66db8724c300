package io.tollgate.benchmarks;

import io.tollgate.diagnostics.metrics.HeavyKeys;
import io.tollgate.diagnostics.metrics.RuleMetrics;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a refusal's key bookkeeping costs a rule under a flood (issue 29 item 6): the refused keys'
 * counters ({@link HeavyKeys}, fed by every refusal) and the early-retrying keys' ({@code
 * EarlyRetryKeys}, fed by every early retry, nearly every refusal of a flood), as the engine calls
 * them ({@link TollgateMetrics#record} and {@link TollgateMetrics#earlyRetry}), for a flood from
 * {@code keys} clients in a random order (1: one client storming; 10,000: the end-to-end runs'
 * {@code KEYS=many}). The keys are made beforehand, as a request's key is made before the rule
 * counts it.
 *
 * <ul>
 *   <li>{@code refusedKeys}: {@link HeavyKeys#add} alone;
 *   <li>{@code refusal}: a refusal's counts, the rule's refused count and keys, then its early
 *       retry and its key's counter.
 * </ul>
 *
 * <p>Rerun: {@code java -jar benchmarks/target/benchmarks.jar RefusedKeysBenchmark} (add {@code -t
 * 2} for two threads refusing at once).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class RefusedKeysBenchmark {

  private static final int ORDER = 1 << 16;

  @Param({"1", "10000"})
  public int keys;

  private String[] order;
  private HeavyKeys heavyKeys;
  private RuleMetrics rule;
  private final UnaryOperator<String> shown = k -> k;

  /** Each thread's place in the order. */
  @State(Scope.Thread)
  public static class Place {
    int next;

    @Setup
    public void start() {
      next = new Random().nextInt(ORDER);
    }
  }

  @Setup
  public void setUp() {
    String[] clients = new String[keys];
    for (int i = 0; i < keys; i++) {
      clients[i] = "198.51." + (i >> 8) + "." + (i & 0xff);
    }
    Random random = new Random(29);
    order = new String[ORDER];
    for (int i = 0; i < ORDER; i++) {
      order[i] = clients[random.nextInt(keys)];
    }
    heavyKeys = new HeavyKeys(10);
    rule = TollgateMetrics.of("refused-keys-" + keys + "-" + System.nanoTime());
  }

  @Benchmark
  public void refusedKeys(Place place) {
    heavyKeys.add(order[place.next++ & (ORDER - 1)]);
  }

  @Benchmark
  public void refusal(Place place) {
    String key = order[place.next++ & (ORDER - 1)];
    TollgateMetrics.record(rule, false, false, key, false, 0, 0);
    TollgateMetrics.earlyRetry(rule, key, shown, 3, 200_000_000L);
  }
}
