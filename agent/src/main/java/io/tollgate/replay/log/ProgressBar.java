package io.tollgate.replay.log;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar for {@code replay}, drawn on standard error while the logs are read:
 *
 * <pre>
 *  42% [##########..............]  1,234,567 requests   35.2 of 83.9 MB   0:12 left
 * </pre>
 *
 * <p>Use it from the thread that reads the logs:
 *
 * <pre>{@code
 * ProgressBar bar = ProgressBar.start(reader, System.err);
 * long n = 0;
 * for (LoggedRequest r; (r = reader.next()) != null; ) {
 *   ...
 *   bar.update(++n);
 * }
 * bar.finish();   // erases the bar, so that the report starts on a clean line
 * }</pre>
 *
 * <p>Progress is the bytes read of the files' total ({@link AccessLogReader#bytesRead()}, which
 * counts compressed bytes for gzip files, so the bar moves evenly through them too). It draws at
 * most ten times a second, never in the first quarter second (a small log shows no bar at all),
 * and nothing at all unless the JVM runs on a terminal ({@link #onTerminal()}), so that a
 * redirected or piped run, a CI log or a test gets no carriage returns. {@link #update} is cheap
 * enough to call for every request: it looks at the clock once every 256 calls.
 */
public final class ProgressBar {

  private static final long REDRAW_NANOS = 100_000_000L;
  private static final long FIRST_DRAW_NANOS = 250_000_000L;
  private static final int BAR_WIDTH = 24;

  private final AccessLogReader reader;
  private final PrintStream out;
  private final boolean enabled;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private long lastDrawNanos;
  private int calls;
  private int drawnWidth; // characters of the bar on the screen, 0 when none

  private ProgressBar(AccessLogReader reader, PrintStream out, boolean enabled,
      LongSupplier nanoClock) {
    this.reader = reader;
    this.out = out;
    this.enabled = enabled;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    this.lastDrawNanos = startNanos - REDRAW_NANOS;
  }

  /** A bar for {@code reader} on {@code err}, drawn only when the JVM runs on a terminal. */
  public static ProgressBar start(AccessLogReader reader, PrintStream err) {
    return start(reader, err, onTerminal(), System::nanoTime);
  }

  /** A bar drawn or not as {@code terminal} says, with the given clock (for tests). */
  static ProgressBar start(AccessLogReader reader, PrintStream err, boolean terminal,
      LongSupplier nanoClock) {
    return new ProgressBar(reader, err, terminal, nanoClock);
  }

  /** Says that {@code requestsRead} requests have been read so far; redraws if it is time. */
  public void update(long requestsRead) {
    if (!enabled || (++calls & 0xFF) != 0) {
      return;
    }
    long now = nanoClock.getAsLong();
    if (now - startNanos < FIRST_DRAW_NANOS || now - lastDrawNanos < REDRAW_NANOS) {
      return;
    }
    lastDrawNanos = now;
    draw(line(requestsRead, reader.bytesRead(), reader.totalBytes(), now - startNanos));
  }

  /** Erases the bar (if one was drawn). */
  public void finish() {
    if (enabled && drawnWidth > 0) {
      out.print('\r' + " ".repeat(drawnWidth) + '\r');
      out.flush();
      drawnWidth = 0;
    }
  }

  private void draw(String line) {
    // Pads over a longer previous line rather than clearing it first: no flicker.
    int pad = Math.max(0, drawnWidth - line.length());
    out.print('\r' + line + " ".repeat(pad));
    out.flush();
    drawnWidth = line.length();
  }

  /** The bar's text: at most 79 characters. */
  static String line(long requests, long bytesRead, long totalBytes, long elapsedNanos) {
    StringBuilder line = new StringBuilder(80);
    if (totalBytes > 0) {
      double done = Math.min(1.0, (double) bytesRead / totalBytes);
      int filled = (int) (done * BAR_WIDTH);
      line.append(String.format(Locale.ROOT, "%3d%% [", (int) (done * 100)));
      line.append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append(']');
      line.append(String.format(Locale.ROOT, "  %,d requests  %.1f of %.1f MB", requests,
          bytesRead / 1e6, totalBytes / 1e6));
      if (bytesRead > 0 && done < 1.0) {
        long leftSeconds = (long) (elapsedNanos / 1e9 * (totalBytes - bytesRead) / bytesRead);
        line.append(String.format(Locale.ROOT, "  %d:%02d left", leftSeconds / 60,
            leftSeconds % 60));
      }
    } else {
      line.append(String.format(Locale.ROOT, "%,d requests  %.1f MB", requests, bytesRead / 1e6));
    }
    return line.length() > 79 ? line.substring(0, 79) : line.toString();
  }

  /**
   * Whether the JVM runs on a terminal: a console, and on Java 22 and later (where {@link
   * System#console()} is there even when redirected) one that {@code isTerminal()}. Both standard
   * input and output must be the terminal: {@code replay ... > report.txt} draws no bar.
   */
  public static boolean onTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true; // before Java 22: a console is a terminal
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
