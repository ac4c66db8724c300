package io.tollgate.replay;

import io.tollgate.replay.log.AccessLogReader;
import java.io.PrintStream;

/** Tells a person at a terminal how far the replay has read; silent elsewhere. */
abstract class ReplayProgress {

  static final ReplayProgress NONE =
      new ReplayProgress() {
        @Override
        void update(long requests) {}

        @Override
        void done(long requests) {}
      };

  /** A progress bar on {@code err} when the JVM runs on a terminal, else {@link #NONE}. */
  static ReplayProgress onTerminal(PrintStream err, AccessLogReader logs) {
    return System.console() == null ? NONE : new Bar(err, logs);
  }

  /** After every 65,536 requests. */
  abstract void update(long requests);

  abstract void done(long requests);

  private static final class Bar extends ReplayProgress {
    private final PrintStream err;
    private final AccessLogReader logs;
    private final long start = System.nanoTime();

    Bar(PrintStream err, AccessLogReader logs) {
      this.err = err;
      this.logs = logs;
    }

    @Override
    void update(long requests) {
      long total = Math.max(1, logs.totalBytes());
      int percent = (int) Math.min(100, logs.bytesRead() * 100 / total);
      StringBuilder bar = new StringBuilder("\r[");
      for (int i = 0; i < 30; i++) {
        bar.append(i < percent * 30 / 100 ? '#' : '.');
      }
      double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
      bar.append("] ").append(percent).append("% ").append(Figures.count(requests))
          .append(" requests, ").append(Figures.count((long) (requests / seconds))).append("/s ");
      err.print(bar);
      err.flush();
    }

    @Override
    void done(long requests) {
      update(requests);
      err.println();
    }
  }
}
