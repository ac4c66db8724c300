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
 * <p>{@code cpu.worker.norm} is the CPU time of the benchmark's own threads per operation, without
 * the JIT's and the GC's threads, which {@code cpu.time.norm} includes.
 *
 * <p>Use: {@code -prof io.tollgate.benchmarks.CpuTimeProfiler} (together with {@code -prof gc}).
 */
public final class CpuTimeProfiler implements InternalProfiler {

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private static final java.lang.management.ThreadMXBean THREADS =
      ManagementFactory.getThreadMXBean();

  private long cpuStart;
  private long wallStart;
  private long workersStart;

  /**
   * CPU time of the benchmark's own threads (JMH's workers), without the JIT's and the GC's: on a
   * loaded machine the process gets a small share of a core, and the compiler's fixed work,
   * spread over few operations, can outweigh what is measured.
   */
  private static long workersCpu() {
    long sum = 0;
    for (long id : THREADS.getAllThreadIds()) {
      java.lang.management.ThreadInfo info = THREADS.getThreadInfo(id);
      if (info != null && info.getThreadName().contains("jmh-worker")) {
        long cpu = THREADS.getThreadCpuTime(id);
        if (cpu > 0) {
          sum += cpu;
        }
      }
    }
    return sum;
  }

  @Override
  public String getDescription() {
    return "Process CPU time per operation, and the share of cores the JVM had";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    wallStart = System.nanoTime();
    workersStart = workersCpu();
    cpuStart = OS.getProcessCpuTime();
  }

  @Override
  public List<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = OS.getProcessCpuTime() - cpuStart;
    long workers = workersCpu() - workersStart;
    long wall = System.nanoTime() - wallStart;
    long ops = result.getMetadata().getAllOps();
    double perOp = ops > 0 ? (double) cpu / ops : Double.NaN;
    return List.of(
        new ScalarResult("cpu.time.norm", perOp, "ns/op", AggregationPolicy.AVG),
        new ScalarResult("cpu.share", (double) cpu / wall, "cores", AggregationPolicy.AVG),
        new ScalarResult("cpu.worker.norm", ops > 0 ? (double) workers / ops : Double.NaN,
            "ns/op", AggregationPolicy.AVG));
  }
}
