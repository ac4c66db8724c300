package io.tollgate.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time of the benchmark JVM per operation, beside JMH's wall-clock score.
 *
 * <p>On a machine shared with other work, a benchmark thread waits for a core part of the time,
 * and the wall-clock ns/op grows with the other load. The process's CPU time does not count that
 * waiting, so {@code cpu.time.norm} stays close to what the operation costs on an idle core (it
 * still includes JIT and GC threads, and caches that the neighbours cool down). {@code cpu.share}
 * says how many cores the JVM actually had during the iteration; at 1 benchmark thread on an idle
 * machine it is close to 1.
 *
 * <p>Use: {@code -prof io.tollgate.benchmarks.CpuTimeProfiler} (together with {@code -prof gc}).
 */
public final class CpuTimeProfiler implements InternalProfiler {

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private long cpuStart;
  private long wallStart;

  @Override
  public String getDescription() {
    return "Process CPU time per operation, and the share of cores the JVM had";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    wallStart = System.nanoTime();
    cpuStart = OS.getProcessCpuTime();
  }

  @Override
  public List<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = OS.getProcessCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    long ops = result.getMetadata().getAllOps();
    double perOp = ops > 0 ? (double) cpu / ops : Double.NaN;
    return List.of(
        new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG),
        new ScalarResult("cpu.share", (double) cpu / wall, "cores", AggregationPolicy.AVG));
  }
}
