import io.tollgate.agent.FrameworkModules;
import io.tollgate.instrumentation.EntryPointClassFiles;
import io.tollgate.instrumentation.EntryPointWeaving;
import io.tollgate.instrumentation.classloader.ClassLoaderTransformer;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.*;
import java.util.zip.*;

/**
 * The agent transformer's work over every class file of a fat jar, as at an application's start: the
 * walk over each constant pool, then ASM for the classes it hands on (to weave a class loader's
 * loadClass or an entry point). CPU of each of three passes; run with -Xint as well (the start-up
 * regime, before the JIT has compiled the walk and ASM).
 *
 *   java [-Xint] -cp agent/target/classes:agent-bootstrap/target/classes:BYTE_BUDDY_JAR \
 *       benchmarks/prefilter-scan/TransformerWork.java test-apps/spring-boot3/target/spring-boot3.jar
 */
public final class TransformerWork {
  public static void main(String[] args) throws Exception {
    List<byte[]> classes = new ArrayList<>();
    try (ZipFile fatJar = new ZipFile(Path.of(args[0]).toFile())) {
      for (ZipEntry entry : Collections.list(fatJar.entries())) {
        if (entry.getName().endsWith(".class")) classes.add(fatJar.getInputStream(entry).readAllBytes());
        else if (entry.getName().endsWith(".jar")) {
          try (InputStream in = fatJar.getInputStream(entry); ZipInputStream nested = new ZipInputStream(in)) {
            for (ZipEntry inner; (inner = nested.getNextEntry()) != null; ) if (inner.getName().endsWith(".class")) classes.add(nested.readAllBytes());
          }
        }
      }
    }
    EntryPointWeaving weaving = EntryPointWeaving.of(FrameworkModules.all());
    EntryPointClassFiles prefilter = weaving.classFiles();
    ClassLoaderTransformer loaders = new ClassLoaderTransformer(null);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int pass = 1; pass <= 3; pass++) {
      long t = threads.getCurrentThreadCpuTime(); int asm = 0, woven = 0;
      // and split: the walk, the class loaders' weaving, the entry points' (CPU clock read around
      // each part: its own cost, ~1 us a read, falls mostly on the walk's share)
      long walk = 0, loaderWeaving = 0, entryPointWeaving = 0;
      for (byte[] b : classes) {
        long a = threads.getCurrentThreadCpuTime();
        int f = prefilter.scan(b);
        long c = threads.getCurrentThreadCpuTime();
        if ((f & 2) != 0) { asm++; if (loaders.weaveMentioningLoadClass("x", null, b) != null) woven++; }
        long d = threads.getCurrentThreadCpuTime();
        if ((f & 1) != 0) { asm++; if (weaving.weave(b) != null) woven++; }
        walk += c - a; loaderWeaving += d - c; entryPointWeaving += threads.getCurrentThreadCpuTime() - d;
      }
      System.out.println("pass " + pass + ": " + classes.size() + " class files, " + (threads.getCurrentThreadCpuTime() - t) / 1_000_000 + " ms CPU; handed on past the walk " + asm + ", woven " + woven
          + "; walk " + walk / 1_000_000 + " ms, class loaders' weaving " + loaderWeaving / 1_000_000 + " ms, entry points' weaving " + entryPointWeaving / 1_000_000 + " ms");
    }
  }
}
