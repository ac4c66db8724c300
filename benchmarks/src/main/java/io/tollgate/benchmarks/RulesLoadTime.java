package io.tollgate.benchmarks;

import io.tollgate.config.RulesConfig;
import io.tollgate.config.RulesFileParser;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * What the agent does with a rules file, timed in a fresh JVM as at the application's start:
 * {@code RulesLoadTime FILE CHANGED} reads and builds FILE (the first load), then reloads CHANGED
 * and FILE in turn, {@code RELOADS} times (each keeping the state of the rules that did not
 * change), and prints the wall and CPU milliseconds of the loading thread for the first load, the
 * first reload and the last, and the process's CPU (the JIT's and the collector's threads too).
 * Used by {@code benchmarks/run-rule-count.sh}.
 */
public final class RulesLoadTime {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private RulesLoadTime() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: RulesLoadTime FILE CHANGED");
    }
    Path[] files = {Paths.get(args[0]), Paths.get(args[1])};
    int reloads = Integer.getInteger("reloads", 5);
    RuleSetFactory factory = new RuleSetFactory(Clock.system());
    long[] load = new long[2];
    RuleSet rules = timed(factory, files[0], null, load);
    long[] firstReload = new long[2];
    long[] lastReload = new long[2];
    for (int i = 1; i <= reloads; i++) {
      rules = timed(factory, files[i % 2], rules, i == 1 ? firstReload : lastReload);
    }
    long processCpu =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    System.out.println(String.format(Locale.ROOT,
        "rules %d load %d ms (cpu %d) reload-first %d ms (cpu %d) reload-last %d ms (cpu %d)"
            + " process-cpu %d ms",
        rules.size(), load[0], load[1], firstReload[0], firstReload[1], lastReload[0],
        lastReload[1], processCpu / 1_000_000));
  }

  /** Reads and builds {@code file} as the agent applies it; wall and thread CPU ms into {@code ms}. */
  private static RuleSet timed(RuleSetFactory factory, Path file, RuleSet previous, long[] ms)
      throws Exception {
    long wall = System.nanoTime();
    long cpu = THREADS.getCurrentThreadCpuTime();
    RulesConfig config = RulesFileParser.parse(file);
    RuleSet built = factory.build(config, previous);
    factory.applied();
    ms[0] = (System.nanoTime() - wall) / 1_000_000;
    ms[1] = (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000;
    return built;
  }
}
