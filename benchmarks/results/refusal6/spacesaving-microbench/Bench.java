package io.tollgate.diagnostics.metrics;
public class Bench {
  public static void main(String[] a) {
    String[] keys = new String[10_000];
    for (int i = 0; i < keys.length; i++) keys[i] = "client-" + i;
    java.util.Random r = new java.util.Random(1);
    int[] order = new int[1 << 20];
    for (int i = 0; i < order.length; i++) order[i] = r.nextInt(keys.length);
    HeavyKeys heavy = new HeavyKeys(10);
    EarlyRetryKeys early = new EarlyRetryKeys();
    java.util.function.UnaryOperator<String> shown = k -> k;
    long sink = 0;
    for (int round = 0; round < 12; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < order.length; i++) heavy.add(keys[order[i]]);
      long t1 = System.nanoTime();
      for (int i = 0; i < order.length; i++) early.add(keys[order[i]], shown, 3600, 1_000_000L);
      long t2 = System.nanoTime();
      sink += heavy.top().size() + early.top(10).size();
      if (round >= 4) System.out.printf("heavy %.1f ns/add  early %.1f ns/add%n", (t1 - t0) / (double) order.length, (t2 - t1) / (double) order.length);
    }
    if (sink == 42) System.out.println();
  }
}
