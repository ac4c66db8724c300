import io.tollgate.agent.FrameworkModules;
import io.tollgate.instrumentation.EntryPointClassFiles;
import io.tollgate.instrumentation.EntryPointWeaving;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * What the agent's pre-filter costs over an application's classes: runs EntryPointClassFiles.scan
 * (the agent's one walk over each constant pool) over every class file in a Spring Boot fat jar
 * (its BOOT-INF/classes and BOOT-INF/lib jars) five times, and prints the CPU time of each pass and
 * the number of candidates, beside two walks, as the agent made before (the entry points' and the
 * class-loader weaving's own). Run it with -Xint as well: at start-up the pre-filter runs mostly
 * before the JIT has compiled it.
 *
 *   mvn -o -q -pl agent dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 *   java [-Xint] -cp agent/target/classes:$(cat /tmp/cp.txt) \
 *       benchmarks/prefilter-scan/PrefilterScan.java test-apps/spring-boot3/target/spring-boot3.jar
 */
public final class PrefilterScan {

  public static void main(String[] args) throws Exception {
    List<byte[]> classes = new ArrayList<>();
    try (ZipFile fatJar = new ZipFile(Path.of(args[0]).toFile())) {
      for (ZipEntry entry : Collections.list(fatJar.entries())) {
        if (entry.getName().endsWith(".class")) {
          classes.add(fatJar.getInputStream(entry).readAllBytes());
        } else if (entry.getName().endsWith(".jar")) {
          try (InputStream in = fatJar.getInputStream(entry);
              ZipInputStream nested = new ZipInputStream(in)) {
            for (ZipEntry inner; (inner = nested.getNextEntry()) != null; ) {
              if (inner.getName().endsWith(".class")) {
                classes.add(nested.readAllBytes());
              }
            }
          }
        }
      }
    }
    long bytes = 0;
    for (byte[] classFile : classes) {
      bytes += classFile.length;
    }
    System.out.println(classes.size() + " class files, " + bytes / 1024 + " KiB");
    EntryPointClassFiles prefilter = EntryPointWeaving.of(FrameworkModules.all()).classFiles();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int pass = 1; pass <= 5; pass++) {
      long start = threads.getCurrentThreadCpuTime();
      int candidates = 0;
      int loaders = 0;
      for (byte[] classFile : classes) {
        int found = prefilter.scan(classFile);
        candidates += (found & EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT) != 0 ? 1 : 0;
        loaders += (found & EntryPointClassFiles.MENTIONS_LOAD_CLASS) != 0 ? 1 : 0;
      }
      long one = threads.getCurrentThreadCpuTime() - start;
      start = threads.getCurrentThreadCpuTime();
      // Before, the class-loader weaving's transformer walked each pool a second time (its own
      // walk compared only the strings' lengths with "loadClass"'s): two walks of this one.
      for (byte[] classFile : classes) {
        prefilter.scan(classFile);
        prefilter.scan(classFile);
      }
      long two = threads.getCurrentThreadCpuTime() - start;
      System.out.println("pass " + pass + ": one walk " + one / 1_000_000 + " ms of CPU ("
          + candidates + " may declare an entry point, " + loaders + " mention loadClass);"
          + " two walks, as before: " + two / 1_000_000 + " ms");
    }
  }
}
