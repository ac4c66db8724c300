import io.tollgate.agent.FrameworkModules;
import io.tollgate.instrumentation.EntryPointClassFiles;
import io.tollgate.instrumentation.EntryPointWeaving;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * What the agent's pre-filter costs over an application's classes: runs
 * EntryPointClassFiles.mayBeInstrumented over every class file in a Spring Boot fat jar (its
 * BOOT-INF/classes and BOOT-INF/lib jars) five times, and prints the time of each pass and the
 * number of candidates. Run it with -Xint as well: at start-up the pre-filter runs mostly
 * before the JIT has compiled it.
 *
 *   java -cp agent/target/classes benchmarks/prefilter-scan/PrefilterScan.java \
 *       test-apps/spring-boot3/target/spring-boot3.jar
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
    for (int pass = 1; pass <= 5; pass++) {
      long start = System.nanoTime();
      int candidates = 0;
      for (byte[] classFile : classes) {
        if (prefilter.mayBeInstrumented(classFile)) {
          candidates++;
        }
      }
      System.out.println("pass " + pass + ": " + (System.nanoTime() - start) / 1_000_000
          + " ms, " + candidates + " candidates");
    }
  }
}
