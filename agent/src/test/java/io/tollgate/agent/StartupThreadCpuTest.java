package io.tollgate.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The {@code ready} line's CPU figure on Linux is the thread's own, as {@code ThreadMXBean} counts
 * it (which adds the slice in progress): never more than what it says just after, and never the
 * process's (which the JVM's start alone makes larger than this test thread's).
 */
class StartupThreadCpuTest {

  @Test
  void onLinuxItIsThisThreadsCpuAsTheJvmCountsIt() {
    assumeTrue(Files.isReadable(Paths.get("/proc/thread-self/schedstat")), "Linux only");
    long schedstat = StartupThreadCpu.fromSchedstat();
    long mxAfter = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    assertTrue(schedstat > 0, "read: " + schedstat);
    assertTrue(schedstat <= mxAfter, schedstat + " ns, then ThreadMXBean " + mxAfter + " ns");
    assertTrue(StartupThreadCpu.millis() >= 0);
  }

  @Test
  void aThreadThatHasJustStartedHasUsedLessThanTheOneThatStartedIt() throws Exception {
    assumeTrue(Files.isReadable(Paths.get("/proc/thread-self/schedstat")), "Linux only");
    long[] fresh = new long[1];
    Thread t = new Thread(() -> fresh[0] = StartupThreadCpu.fromSchedstat());
    t.start();
    t.join();
    long mine = StartupThreadCpu.fromSchedstat();
    assertTrue(fresh[0] >= 0 && fresh[0] < mine, "new thread " + fresh[0] + " ns, this one " + mine);
  }
}
