package io.tollgate.diagnostics;

import io.tollgate.logging.AgentLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * One line per key in a retry storm, at most once a minute, naming the key and how early it came
 * back:
 *
 * <pre>
 * [tollgate] rule 'api': key '203.0.113.7' retried 0.2 s after being told 12 s, 240 times in the last minute
 * </pre>
 *
 * <p>The first early retry of a key is written at once (without a count); later ones are counted,
 * and written with the count once the key's minute is over and it retries early again. At most
 * {@link #MAX_LINES_PER_MINUTE} lines a minute in all, however many keys storm: the metric counts
 * every early retry, the log only shows who.
 *
 * <p>Each key's minute ({@link KeyLine}) is kept by the caller with what it remembers of the key,
 * so that this holds no table of its own and an early retry that writes nothing builds no string.
 */
public final class EarlyRetryLog {

  static final int MAX_LINES_PER_MINUTE = 20;

  private static final long MINUTE_NANOS = TimeUnit.MINUTES.toNanos(1);

  /**
   * One key's early retries since its last line (it is their count: an adder, not an atomic, as
   * in a storm every refusal of the key, from every request thread, lands here, and one counter
   * they all incremented would be a cache line they fought over; the adder itself rather than a
   * field holding one, as under a flood of many keys each object more to reach is a cache line
   * more to miss), and when that line was written.
   */
  public static final class KeyLine extends LongAdder {
    private static final long serialVersionUID = 1L;
    private static final VarHandle LINE_NANOS;

    static {
      try {
        LINE_NANOS = MethodHandles.lookup().findVarHandle(KeyLine.class, "lineNanos", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    /**
     * When the key's last line was written, or its first early retry seen before any line. A
     * field, not an {@code AtomicLong}: every early retry reads it, and under a flood of many keys
     * each object more to reach is a cache line more to miss.
     */
    private volatile long lineNanos;
    volatile boolean written;

    /** A key's first early retry, at {@code nowNanos} of the log's clock (the same as the caller's). */
    public KeyLine(long nowNanos) {
      this.lineNanos = nowNanos;
    }

    boolean lineWritten(long last, long now) {
      return LINE_NANOS.compareAndSet(this, last, now);
    }
  }

  private final LongSupplier nanoClock;
  private final AtomicLong minuteStart;
  private final AtomicLong linesThisMinute = new AtomicLong();

  public EarlyRetryLog(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.minuteStart = new AtomicLong(nanoClock.getAsLong());
  }

  /**
   * {@code rule} refused {@code key} {@code afterNanos} after telling it to wait {@code
   * toldSeconds}: writes its line when due, showing the key as {@code shown} makes it (as the
   * refusal log shows it).
   */
  public void earlyRetry(String rule, KeyLine line, String key, UnaryOperator<String> shown,
      long toldSeconds, long afterNanos) {
    earlyRetry(rule, line, key, shown, toldSeconds, afterNanos, nanoClock.getAsLong());
  }

  /** As above, at {@code now}: the caller's reading of this log's clock. */
  public void earlyRetry(String rule, KeyLine line, String key, UnaryOperator<String> shown,
      long toldSeconds, long afterNanos, long now) {
    line.increment();
    long last = line.lineNanos;
    boolean due = !line.written || now - last >= MINUTE_NANOS;
    if (!due || !admitLine(now) || !line.lineWritten(last, now)) {
      return;
    }
    boolean first = !line.written;
    line.written = true;
    // each cell read and zeroed atomically: a retry counted meanwhile goes to the next line
    long times = line.sumThenReset();
    StringBuilder text = new StringBuilder(120)
        .append("rule '").append(rule).append("': key ").append(shown.apply(key))
        .append(" retried ").append(seconds(afterNanos)).append(" s after being told ")
        .append(toldSeconds).append(" s");
    if (!first || times > 1) {
      text.append(", ").append(times).append(times == 1 ? " time" : " times")
          .append(" in the last ").append(span(now - last));
    }
    if (first) {
      text.append(" (a client retrying before its Retry-After: see tollgate_early_retries_total)");
    }
    AgentLog.info(text.toString());
  }

  /**
   * Whether the minute's lines in all leave room for one more. Read before it is counted: under a
   * flood of many keys, each key's early retries are due until its first line is written, and
   * with the minute's lines written already they only read the count, where an increment by each
   * would make it one word that every refusal of the flood writes.
   */
  private boolean admitLine(long now) {
    long start = minuteStart.get();
    if (now - start >= MINUTE_NANOS && minuteStart.compareAndSet(start, now)) {
      linesThisMinute.set(0);
    }
    return linesThisMinute.get() < MAX_LINES_PER_MINUTE
        && linesThisMinute.incrementAndGet() <= MAX_LINES_PER_MINUTE;
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
  }

  /** "minute" up to a minute and a half, then "N minutes". */
  private static String span(long nanos) {
    long minutes = Math.max(1, Math.round(nanos / (double) MINUTE_NANOS));
    return minutes == 1 ? "minute" : minutes + " minutes";
  }
}
