package io.tollgate.diagnostics.metrics;

/**
 * A flood of 10,000 clients refused and retrying early, as a rule's key counters see it: each
 * refusal counts its key in the refused keys (HeavyKeys, via RuleMetrics.refused) and in the
 * early-retrying keys (EarlyRetryKeys, via RuleMetrics.earlyRetry). Keys are new Strings per
 * refusal, as a request's are. {@link #round} times 2^18 refusals, each after {@code pollute}
 * random reads of a 16 MB array; negative: the reads alone. Driven by KeysDriver, which loads one
 * copy per build and alternates them round by round in one JVM.
 */
public class KeysBench {
  static final String[] KEYS = new String[10_000];
  static final int[] ORDER = new int[1 << 18];
  static final long[] MEMORY = new long[16 << 17];
  static final int[] LINES = new int[1 << 16];
  static final RuleMetrics RULE = TollgateMetrics.of("keys-bench");
  public static long sink;

  static {
    for (int i = 0; i < KEYS.length; i++) KEYS[i] = "198.51." + (i >> 8) + "." + (i & 0xff);
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < ORDER.length; i++) ORDER[i] = r.nextInt(KEYS.length);
    for (int i = 0; i < LINES.length; i++) LINES[i] = r.nextInt(MEMORY.length >> 3) << 3;
  }

  public static double round(int pollute) {
    int reads = Math.abs(pollute);
    long t0 = System.nanoTime();
    for (int i = 0; i < ORDER.length; i++) {
      for (int k = 0; k < reads; k++) sink += MEMORY[LINES[(i * reads + k) & (LINES.length - 1)]]++;
      if (pollute < 0) continue;
      String key = new String(KEYS[ORDER[i]].toCharArray());
      TollgateMetrics.record(RULE, false, false, key, false, 0, 0);
      TollgateMetrics.earlyRetry(RULE, key, k -> k, 3, 200_000_000L);
    }
    return (System.nanoTime() - t0) / (double) ORDER.length;
  }
}
