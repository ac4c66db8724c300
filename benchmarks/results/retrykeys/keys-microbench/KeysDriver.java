import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/** Alternates builds of the key counters round by round in one JVM: pollute, rounds, build dirs..., agent classes. */
public class KeysDriver {
  public static void main(String[] a) throws Exception {
    int pollute = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    int builds = a.length - 3;
    URL agent = Path.of(a[a.length - 1]).toUri().toURL();
    Method[] round = new Method[builds];
    for (int b = 0; b < builds; b++) {
      ClassLoader loader = new URLClassLoader(
          new URL[] {Path.of(a[2 + b]).toUri().toURL(), agent}, ClassLoader.getPlatformClassLoader());
      round[b] = loader.loadClass("io.tollgate.diagnostics.metrics.KeysBench").getMethod("round", int.class);
    }
    double[][] ns = new double[builds + 1][rounds];
    for (int r = -5; r < rounds; r++) {
      StringBuilder line = new StringBuilder("round " + r + ":");
      for (int b = 0; b < builds; b++) {
        double t = (double) round[b].invoke(null, pollute);
        if (r >= 0) ns[b][r] = t;
        line.append(String.format(" %s %.1f", Path.of(a[2 + b]).getFileName(), t));
      }
      double t = (double) round[0].invoke(null, -Math.max(pollute, 0) - 0);
      if (r >= 0) ns[builds][r] = t;
      line.append(String.format(" reads-alone %.1f", t));
      System.out.println(line);
    }
    for (int b = 0; b <= builds; b++) {
      double[] s = ns[b].clone();
      java.util.Arrays.sort(s);
      String name = b < builds ? Path.of(a[2 + b]).getFileName().toString() : "reads-alone";
      System.out.printf("%s: median %.1f ns per refusal, lowest %.1f%n", name, s[s.length / 2], s[0]);
    }
  }
}
