package io.tollgate.stores.redis;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one daemon thread that prints the benchmark traces ({@link LateReplyTrace}, {@link
 * DecisionPathTrace}; {@code -Dtollgate.test.late-trace=true}), made at their first print job:
 * a thread per trace (and one more per rule followed) was a thread per job for lines that take
 * microseconds to write. Never made when tracing is off.
 */
final class TracePrinter {

  private TracePrinter() {}

  /** Made at the first {@link #every}: loading this class alone starts nothing. */
  private static final class Printer {
    static final ScheduledExecutorService PRINTER =
        Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "tollgate-trace");
          t.setDaemon(true);
          return t;
        });
  }

  /** Runs {@code print} every {@code periodMillis}, the first after one period. */
  static void every(long periodMillis, Runnable print) {
    Printer.PRINTER.scheduleWithFixedDelay(
        print, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }
}
