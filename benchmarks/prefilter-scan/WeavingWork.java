import io.tollgate.agent.FrameworkModules;
import io.tollgate.instrumentation.*;
import io.tollgate.instrumentation.classloader.ClassLoaderTransformer;
import net.bytebuddy.jar.asm.*;
import java.io.InputStream;
import java.lang.management.*;
import java.nio.file.Path;
import java.util.*;
import java.util.zip.*;
/**
 * The agent's weaving of the classes a real start weaves (names given, as the agent's log lists them:
 * "instrumented ..." and the class loaders), by part: the walk over each class file, the class
 * loaders' weaving, the entry points'; and, for reference, what ASM's copy of those classes costs
 * alone (a reader, a reader with an empty visitor, a writer given the reader: the constant pool
 * copied into its SymbolTable, a whole copy). CPU of each pass; run with -Xint as well.
 *
 *   java [-Xint] -cp agent/target/classes:agent-bootstrap/target/classes:BYTE_BUDDY_JAR \
 *       benchmarks/prefilter-scan/WeavingWork.java FAT_JAR ENTRY,ENTRY,...
 */
public final class WeavingWork {
  public static void main(String[] args) throws Exception {
    Set<String> want = new HashSet<>(Arrays.asList(args[1].split(",")));
    List<byte[]> ep = new ArrayList<>(), ld = new ArrayList<>();
    try (ZipFile fatJar = new ZipFile(Path.of(args[0]).toFile())) {
      for (ZipEntry entry : Collections.list(fatJar.entries())) {
        if (entry.getName().endsWith(".jar")) {
          try (InputStream in = fatJar.getInputStream(entry); ZipInputStream nested = new ZipInputStream(in)) {
            for (ZipEntry inner; (inner = nested.getNextEntry()) != null; ) if (want.contains(inner.getName())) ep.add(nested.readAllBytes());
          }
        } else if (want.contains(entry.getName())) ep.add(fatJar.getInputStream(entry).readAllBytes());
      }
    }
    System.out.println(ep.size() + " classes");
    EntryPointWeaving weaving = EntryPointWeaving.of(FrameworkModules.all());
    ClassLoaderTransformer loaders = new ClassLoaderTransformer(null);
    ThreadMXBean th = ManagementFactory.getThreadMXBean();
    for (int pass = 0; pass < 3; pass++) {
      long a = th.getCurrentThreadCpuTime();
      for (byte[] b : ep) new ClassReader(b);
      long b1 = th.getCurrentThreadCpuTime();
      for (byte[] b : ep) new ClassReader(b).accept(new ClassVisitor(Opcodes.ASM9) {}, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      long c = th.getCurrentThreadCpuTime();
      for (byte[] b : ep) new ClassWriter(new ClassReader(b), 0);
      long d = th.getCurrentThreadCpuTime();
      for (byte[] b : ep) { ClassReader r = new ClassReader(b); ClassWriter w = new ClassWriter(r, 0); r.accept(w, 0); w.toByteArray(); }
      long e = th.getCurrentThreadCpuTime();
      long s0 = th.getCurrentThreadCpuTime(); int[] flags = new int[ep.size()]; for (int i = 0; i < ep.size(); i++) flags[i] = weaving.classFiles().scan(ep.get(i));
      long s1 = th.getCurrentThreadCpuTime(); int m = 0; for (int i = 0; i < ep.size(); i++) { byte[] b = ep.get(i); int f = flags[i]; if ((f & 2) != 0 && loaders.weaveMentioningLoadClass("x", null, b) != null) m++; }
      long s2 = th.getCurrentThreadCpuTime(); for (int i = 0; i < ep.size(); i++) { byte[] b = ep.get(i); int f = flags[i]; if ((f & 1) != 0 && weaving.weave(b) != null) m++; }
      long s3 = th.getCurrentThreadCpuTime();
      System.out.printf("   walk %.1f, loaders %.1f, entry points %.1f (%d)%n", (s1-s0)/1e6, (s2-s1)/1e6, (s3-s2)/1e6, m);
      e = th.getCurrentThreadCpuTime();
      int n = 0;
      for (byte[] b : ep) { int f = weaving.classFiles().scan(b); if ((f & 2) != 0 && loaders.weaveMentioningLoadClass("x", null, b) != null) n++; if ((f & 1) != 0 && weaving.weave(b) != null) n++; }
      long f = th.getCurrentThreadCpuTime();
      System.out.printf("pass %d: reader ctor %.1f, accept(empty, skip) %.1f, ctor+writer copy pool %.1f, ctor+full copy %.1f, agent's weave (%d woven) %.1f ms%n", pass, (b1-a)/1e6, (c-b1)/1e6, (d-c)/1e6, (e-d)/1e6, n, (f-e)/1e6);
    }
  }
}
