package io.tollgate.engine;

/**
 * A flood of 10,000 clients refused, as the detector sees it: refusals of uniformly chosen keys
 * ("client-N", rule "hello-refuses"), the clock moving 50 us per refusal (20,000 a second), each
 * key told the seconds left to an hour that started with the run (so its Retry-After drops a
 * second each second). {@link #round} times 2^18 refusals, each after {@code pollute} reads of
 * random cache lines of a 16 MB array (as a request's other work evicts the detector's lines), and
 * returns ns per refusal, the reads included. Driven by {@code Driver}, which loads one copy of
 * this class per build of the detector and alternates them round by round in one JVM.
 */
public class Bench {
  static final String[] KEYS = new String[10_000];
  static final int[] ORDER = new int[1 << 18];
  static final long[] MEMORY = new long[16 << 17];
  static final int[] LINES = new int[1 << 16];
  static final long START = 1_000_000_000_000L;
  static long clock = START;
  static final EarlyRetryDetector DETECTOR = new EarlyRetryDetector(() -> clock);
  static final EarlyRetryDetector.EarlyRetry EARLY = new EarlyRetryDetector.EarlyRetry();
  /** With the bookkeeping after it (the rule's early-retry metrics, the log), as EarlyRetries.check. */
  public static boolean whole;
  /** Each refusal's key a new String with its own bytes, as a request's key is (not the same object each time). */
  public static boolean fresh = Boolean.getBoolean("fresh");
  static final io.tollgate.diagnostics.EarlyRetryLog LOG =
      new io.tollgate.diagnostics.EarlyRetryLog(() -> clock);
  static final io.tollgate.diagnostics.metrics.RuleMetrics METRICS =
      io.tollgate.diagnostics.metrics.TollgateMetrics.of("hello-refuses");
  static long earlies;
  static long refusals;
  public static long sink;

  static {
    for (int i = 0; i < KEYS.length; i++) KEYS[i] = "client-" + (i + 1);
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < ORDER.length; i++) ORDER[i] = r.nextInt(KEYS.length);
    for (int i = 0; i < LINES.length; i++) LINES[i] = r.nextInt(MEMORY.length >> 3) << 3;
  }

  /** ns per refusal over 2^18 refusals, each after {@code pollute} random reads; the reads alone (no refusal) when it is negative. */
  public static double round(int pollute) {
    int reads = Math.abs(pollute);
    long t0 = System.nanoTime();
    for (int i = 0; i < ORDER.length; i++) {
      for (int k = 0; k < reads; k++) sink += MEMORY[LINES[(i * reads + k) & (LINES.length - 1)]]++;
      if (pollute < 0) continue;
      long now = clock += 50_000;
      long told = 3600 - (now - START) / 1_000_000_000L;
      refusals++;
      String key = fresh ? new String(KEYS[ORDER[i]].toCharArray()) : KEYS[ORDER[i]];
      if (DETECTOR.refused("hello-refuses", key, told, now, EARLY)) {
        earlies++;
        sink += EARLY.afterNanos;
        if (whole) {
          io.tollgate.diagnostics.metrics.TollgateMetrics.earlyRetry(
              METRICS, key, KeyDisplay::unquoted, EARLY.toldSeconds, EARLY.afterNanos);
          LOG.earlyRetry("hello-refuses", EARLY.line, key, KeyDisplay::of, EARLY.toldSeconds,
              EARLY.afterNanos, now);
        }
      }
    }
    return (System.nanoTime() - t0) / (double) ORDER.length;
  }

  /** The share of refusals counted as early retries so far, in percent. */
  public static double earlyShare() {
    return 100.0 * earlies / refusals;
  }
}
