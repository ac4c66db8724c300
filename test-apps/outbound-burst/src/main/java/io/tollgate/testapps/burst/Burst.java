package io.tollgate.testapps.burst;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * N calls at R a second with one client: each starts on its own thread at its time, whatever the
 * earlier ones are doing (a slow or paced call does not delay the next one's start), as calls made
 * for separate incoming requests would; each timed from its start to its outcome.
 */
final class Burst {

  private final PartnerCall call;
  private final String url;
  private final int calls;
  private final double perSecond;

  Burst(PartnerCall call, String url, int calls, double perSecond) {
    if (calls < 0 || !(perSecond > 0)) {
      throw new NumberFormatException("calls must be 0 or more, per-second more than 0");
    }
    this.call = call;
    this.url = url;
    this.calls = calls;
    this.perSecond = perSecond;
  }

  BurstReport run() throws InterruptedException {
    BurstReport report = new BurstReport();
    CountDownLatch done = new CountDownLatch(calls);
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    ExecutorService callers = Executors.newCachedThreadPool();
    try {
      long periodNanos = (long) (TimeUnit.SECONDS.toNanos(1) / perSecond);
      for (int i = 0; i < calls; i++) {
        ticker.schedule(() -> callers.execute(() -> {
          long start = System.nanoTime();
          try {
            report.status(call.call(url));
          } catch (Throwable t) {
            report.exception(t);
          } finally {
            report.took(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            done.countDown();
          }
        }), i * periodNanos, TimeUnit.NANOSECONDS);
      }
      if (!done.await(5, TimeUnit.MINUTES)) {
        report.exception(new IllegalStateException("calls still running after 5 minutes"));
      }
      return report;
    } finally {
      ticker.shutdownNow();
      callers.shutdownNow();
    }
  }
}
