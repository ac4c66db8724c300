package io.tollgate.diagnostics;

import io.tollgate.logging.AgentLog;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One line per refused request, so that an operator asked "why did I get a 429?" finds the rule
 * and the key in the log without turning on {@code debug=true} (which logs every allowed request
 * too):
 *
 * <pre>
 * [tollgate] refused GET /hello by rule 'hello-per-ip' key '203.0.113.7': 429, Retry-After 12s
 * </pre>
 *
 * <p>At most {@link #linesPerMinute} lines per rule per minute, so that a flood cannot fill the
 * disk or slow the requests that write them; once a rule's minute is over, what it left out is
 * summed up in one line: {@code ... and 1234 more refusals by rule 'hello-per-ip' in the last
 * minute}. The check on a refusal that is not written is three reads and a {@link LongAdder}
 * increment: under a flood every request thread refuses by the same rule, and a counter they all
 * incremented would be a cache line they all fought over.
 * Keys arrive as the log shows them (short, printable, secrets already hashed); method and path
 * come from the client and are made printable here.
 */
public final class RefusalLog {

  /** Lines per rule per minute unless {@code refusal-log=N} says otherwise. */
  public static final int DEFAULT_LINES_PER_MINUTE = 10;

  private static final long MINUTE_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int MAX_PATH = 200;
  /** Rule names are few, but bounded all the same (a rule set rebuilt by every reload). */
  private static final int MAX_RULES = 10_000;
  /** How often the summaries are looked for: a minute's summary appears within this of its end. */
  private static final long SUMMARY_CHECK_MILLIS = 5_000;

  // A class, not a lambda (as the agent's other objects made on its start path): a lambda's call
  // site is linked at its first run, which spins a class where loading one from the jar is cheaper.
  private static final RefusalLog SHARED = new RefusalLog(new LongSupplier() {
    @Override
    public long getAsLong() {
      return System.nanoTime();
    }
  });

  private final LongSupplier nanoClock;
  private final ConcurrentMap<String, Minute> minutes = new ConcurrentHashMap<>();
  private volatile int linesPerMinute = DEFAULT_LINES_PER_MINUTE;
  private volatile boolean summariesScheduled;

  RefusalLog(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /** The log the engine writes to. */
  public static RefusalLog shared() {
    return SHARED;
  }

  /** {@code refusal-log=N}: lines per rule per minute; 0 turns the log off. */
  public void setLinesPerMinute(int lines) {
    this.linesPerMinute = Math.max(0, lines);
  }

  /**
   * The minute of the rule that refused last: a flood's refusals are one rule's, and find it here
   * without a lookup in {@link #minutes} by the rule's name.
   */
  private volatile Minute lastMinute;

  /** One rule's current minute: when it began, lines written in it, refusals left out. */
  private static final class Minute {
    final String rule;
    volatile long start;
    final AtomicLong written = new AtomicLong();
    /** An adder, not an atomic: every refusal of a flood lands here, from every thread. */
    final LongAdder leftOut = new LongAdder();

    Minute(String rule, long start) {
      this.rule = rule;
      this.start = start;
    }
  }

  /**
   * Whether a refusal by {@code rule} gets its line; if not, it is counted for the rule's summary.
   * Call {@link #write} when it does.
   */
  public boolean admit(String rule) {
    return admit(rule, Long.MIN_VALUE);
  }

  /**
   * As {@link #admit(String)}, at {@code nowNanos}: the caller's reading of this log's clock
   * ({@link System#nanoTime()} for {@link #shared}), so that a refusal reads it once for all its
   * bookkeeping; {@code Long.MIN_VALUE} to read it here.
   */
  public boolean admit(String rule, long nowNanos) {
    int limit = linesPerMinute;
    if (limit <= 0) {
      return false;
    }
    long now = nowNanos == Long.MIN_VALUE ? nanoClock.getAsLong() : nowNanos;
    Minute minute = lastMinute;
    if (minute == null || !minute.rule.equals(rule)) {
      minute = minutes.get(rule);
      if (minute == null) {
        if (minutes.size() >= MAX_RULES) {
          minutes.clear();
        }
        minute = minutes.computeIfAbsent(rule, r -> new Minute(r, now));
      }
      lastMinute = minute;
    }
    if (now - minute.start >= MINUTE_NANOS) {
      endMinute(rule, minute, now);
    }
    // read before incrementing: once the minute's lines are written, refusals no longer write here
    if (minute.written.get() < limit && minute.written.incrementAndGet() <= limit) {
      return true;
    }
    minute.leftOut.increment();
    scheduleSummaries();
    return false;
  }

  /**
   * The line for a refusal {@link #admit} let through.
   *
   * @param key the key as the log shows it (quoted, printable), or {@code -}
   * @param status 429, or 503 when the rule's backend could not decide and it says deny
   */
  public void write(String rule, String method, String path, String key, long retryAfterSeconds,
      int status) {
    AgentLog.info("refused " + printable(method, 16) + " " + printable(path, MAX_PATH)
        + " by rule '" + rule + "' key " + key + ": " + status
        + (status == 503 ? " (the rule's backend cannot decide and its on-failure is deny)" : "")
        + ", Retry-After " + retryAfterSeconds + "s");
  }

  /** Writes the summary of every minute that is over and left refusals out. */
  void summarizeEndedMinutes() {
    long now = nanoClock.getAsLong();
    for (Map.Entry<String, Minute> entry : minutes.entrySet()) {
      Minute minute = entry.getValue();
      if (now - minute.start >= MINUTE_NANOS) {
        endMinute(entry.getKey(), minute, now);
      }
    }
    // the last rule's minute may have left the map (cleared past MAX_RULES while a racing admit
    // kept it as the last): its refusals still counted there, so its summary is still owed
    Minute last = lastMinute;
    if (last != null && minutes.get(last.rule) != last && now - last.start >= MINUTE_NANOS) {
      endMinute(last.rule, last, now);
    }
  }

  private static void endMinute(String rule, Minute minute, long now) {
    long leftOut;
    synchronized (minute) {
      if (now - minute.start < MINUTE_NANOS) {
        return; // another thread ended it first
      }
      minute.start = now;
      minute.written.set(0);
      // each cell is read and zeroed atomically: a refusal counted meanwhile goes to the next minute
      leftOut = minute.leftOut.sumThenReset();
    }
    if (leftOut > 0) {
      AgentLog.info("... and " + leftOut + " more refusal" + (leftOut == 1 ? "" : "s")
          + " by rule '" + rule + "' in the last minute");
    }
  }

  /**
   * The summaries are written by a thread of their own, started at the first refusal left out:
   * a rule whose refusals stop still gets its summary, at the end of its minute.
   */
  private void scheduleSummaries() {
    if (summariesScheduled || this != SHARED) {
      return;
    }
    synchronized (this) {
      if (summariesScheduled) {
        return;
      }
      summariesScheduled = true;
    }
    Thread thread = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(SUMMARY_CHECK_MILLIS);
          summarizeEndedMinutes();
        } catch (InterruptedException e) {
          return;
        } catch (Throwable t) {
          io.tollgate.bootstrap.InternalErrors.report("summarizing refusals", t);
        }
      }
    }, "tollgate-refusal-log");
    thread.setDaemon(true);
    // Started from a request thread: keep the application's class loader out of it.
    thread.setContextClassLoader(null);
    thread.start();
  }

  private static String printable(String text, int max) {
    if (text == null) {
      return "-";
    }
    String shown = text.length() <= max ? text : text.substring(0, max) + "...";
    StringBuilder out = new StringBuilder(shown.length());
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return out.toString();
  }
}
