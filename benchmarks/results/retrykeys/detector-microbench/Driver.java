import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Alternates builds of the detector round by round in one JVM: args are the pollution (random
 * reads before each refusal), the rounds, then one classes directory per build (its Bench and
 * detector, ahead of the agent's classes, which is the last argument). Prints each round's ns per
 * refusal per build, and the medians.
 */
public class Driver {
  public static void main(String[] a) throws Exception {
    int pollute = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    int builds = a.length - 3;
    URL agent = Path.of(a[a.length - 1]).toUri().toURL();
    Method[] round = new Method[builds];
    Method[] share = new Method[builds];
    for (int b = 0; b < builds; b++) {
      ClassLoader loader = new URLClassLoader(
          new URL[] {Path.of(a[2 + b]).toUri().toURL(), agent}, ClassLoader.getPlatformClassLoader());
      Class<?> bench = loader.loadClass("io.tollgate.engine.Bench");
      bench.getField("whole").setBoolean(null, Boolean.getBoolean("whole"));
      round[b] = bench.getMethod("round", int.class);
      share[b] = bench.getMethod("earlyShare");
    }
    double[][] ns = new double[builds][rounds];
    double[] readsAlone = new double[rounds];
    for (int r = -5; r < rounds; r++) { // five rounds of warm-up each
      StringBuilder line = new StringBuilder("round " + r + ":");
      for (int b = 0; b < builds; b++) {
        double t = (double) round[b].invoke(null, pollute);
        if (r >= 0) ns[b][r] = t;
        line.append(String.format(" %s %.1f", Path.of(a[2 + b]).getFileName(), t));
      }
      if (pollute > 0) {
        double t = (double) round[0].invoke(null, -pollute);
        if (r >= 0) readsAlone[r] = t;
        line.append(String.format(" reads-alone %.1f", t));
      }
      System.out.println(line);
    }
    double[] alone = readsAlone.clone();
    java.util.Arrays.sort(alone);
    System.out.printf("the reads alone: median %.1f ns%n", alone[alone.length / 2]);
    for (int b = 0; b < builds; b++) {
      double[] s = ns[b].clone();
      java.util.Arrays.sort(s);
      System.out.printf("%s: median %.1f ns per refusal, lowest %.1f, early retries %.1f%%%n",
          Path.of(a[2 + b]).getFileName(), s[s.length / 2], s[0], (double) share[b].invoke(null));
    }
  }
}
