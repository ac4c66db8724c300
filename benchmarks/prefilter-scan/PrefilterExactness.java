import io.tollgate.agent.FrameworkModules;
import io.tollgate.instrumentation.EntryPointClassFiles;
import io.tollgate.instrumentation.EntryPointWeaving;
import io.tollgate.instrumentation.classloader.ClassLoaderTransformer;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import java.util.zip.*;
import net.bytebuddy.jar.asm.*;

/**
 * Whether the agent's cheap tests of a class file (the constant pool walk, then the method headers)
 * pick exactly the classes ASM would weave: over every class file of the jars and folders of jars
 * given (a fat jar's nested jars too), ASM reads each one in full and its answer (an entry point
 * woven, a loadClass declared) is compared with what the agent's transformer hands on. Prints every
 * false negative (a class that would go unwoven) and false positive (a class parsed for nothing).
 *
 *   java -cp agent/target/classes:agent-bootstrap/target/classes:BYTE_BUDDY_JAR \
 *       benchmarks/prefilter-scan/PrefilterExactness.java test-apps/spring-boot3/target/spring-boot3.jar \
 *       agent/target/weave-corpus
 */
public final class PrefilterExactness {
  static final List<byte[]> classes = new ArrayList<>();
  static final List<String> names = new ArrayList<>();
  static void addJar(InputStream in, String where) throws Exception {
    ZipInputStream z = new ZipInputStream(in);
    for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
      if (e.getName().endsWith(".class")) { classes.add(z.readAllBytes()); names.add(where + "!" + e.getName()); }
      else if (e.getName().endsWith(".jar")) addJar(new java.io.ByteArrayInputStream(z.readAllBytes()), where + "!" + e.getName());
    }
  }
  static boolean declaresLoadClass(byte[] b) {
    ClassReader r = new ClassReader(b);
    if ((r.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) return false;
    boolean[] f = {false};
    r.accept(new ClassVisitor(Opcodes.ASM9) {
      public MethodVisitor visitMethod(int a, String n, String d, String s, String[] x) {
        f[0] |= (a & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE)) == 0 && n.equals("loadClass")
            && (d.equals("(Ljava/lang/String;)Ljava/lang/Class;") || d.equals("(Ljava/lang/String;Z)Ljava/lang/Class;"));
        return null; } }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return f[0];
  }
  public static void main(String[] args) throws Exception {
    for (String a : args) {
      Path p = Path.of(a);
      List<Path> jars = Files.isDirectory(p) ? Files.walk(p).filter(x -> x.toString().endsWith(".jar")).collect(Collectors.toList()) : List.of(p);
      for (Path j : jars) try (InputStream in = Files.newInputStream(j)) { addJar(in, j.toString()); }
    }
    EntryPointWeaving weaving = EntryPointWeaving.of(FrameworkModules.all());
    EntryPointClassFiles prefilter = weaving.classFiles();
    ClassLoaderTransformer loaders = new ClassLoaderTransformer(null);
    int epTruth = 0, epScan = 0, epFN = 0, epFP = 0, lcTruth = 0, lcMention = 0, lcNew = 0, lcFN = 0, bad = 0;
    for (int i = 0; i < classes.size(); i++) {
      byte[] b = classes.get(i);
      boolean tEp, tLc;
      try { tEp = weaving.weave(b) != null; tLc = declaresLoadClass(b); } catch (RuntimeException e) { bad++; continue; }
      int f = prefilter.scan(b);
      boolean sEp = (f & EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT) != 0;
      boolean mLc = (f & EntryPointClassFiles.MENTIONS_LOAD_CLASS) != 0;
      boolean nLc = mLc && loaders.weaveMentioningLoadClass("x", null, b) != null;
      if (tEp) epTruth++; if (sEp) epScan++; if (tEp && !sEp) { epFN++; System.out.println("EP FALSE NEGATIVE " + names.get(i)); }
      if (sEp && !tEp) { epFP++; System.out.println("EP false positive " + names.get(i)); }
      if (tLc) lcTruth++; if (mLc) lcMention++; if (nLc) lcNew++;
      if (tLc != nLc) { lcFN++; System.out.println("LC MISMATCH " + names.get(i) + " truth " + tLc); }
    }
    System.out.println(classes.size() + " class files (" + bad + " unreadable by ASM): entry points: ASM finds " + epTruth + ", scan says " + epScan + ", false negatives " + epFN + ", false positives " + epFP
        + "; loadClass: declared " + lcTruth + ", mentioned " + lcMention + ", woven " + lcNew + ", mismatches " + lcFN);
  }
}
