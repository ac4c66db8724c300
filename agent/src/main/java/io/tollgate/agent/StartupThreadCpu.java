package io.tollgate.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time of the calling thread, in milliseconds, for the {@code ready} line: how much of a
 * core the agent's start-up thread took from the application's start.
 *
 * <p>On Linux it is the first field of {@code /proc/thread-self/schedstat}, the nanoseconds the
 * thread has run (the counter {@code ThreadMXBean} reads there, without the slice in progress), so
 * that the start-up thread does not load {@code java.lang.management} for one number: its
 * {@code ManagementFactory} loads ~40 JDK classes, a native library and a service lookup that an
 * application such as Spring Boot 3 does not load before its first request, on the two cores the
 * application starts on. Elsewhere, or when that file cannot be read, {@code ThreadMXBean} as
 * before; -1 when neither tells.
 */
final class StartupThreadCpu {

  private static final Path SCHEDSTAT = Paths.get("/proc/thread-self/schedstat");

  private StartupThreadCpu() {}

  static long millis() {
    long nanos = fromSchedstat();
    if (nanos >= 0) {
      return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return threads.isCurrentThreadCpuTimeSupported()
        ? TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime())
        : -1;
  }

  /** The nanoseconds this thread has run by Linux's scheduler; -1 when not on Linux. */
  static long fromSchedstat() {
    try {
      String text = new String(Files.readAllBytes(SCHEDSTAT), StandardCharsets.US_ASCII);
      int end = text.indexOf(' ');
      return Long.parseLong(end < 0 ? text.trim() : text.substring(0, end));
    } catch (Exception | LinkageError e) {
      return -1; // not Linux, no /proc, a kernel without scheduler statistics
    }
  }
}
