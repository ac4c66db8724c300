package io.tollgate.instrumentation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * One corpus: a folder of jars that make a complete class path (a server's or a framework's jars
 * and their dependencies, as Maven resolves them). {@link #weaveAndVerify} passes every class of
 * every jar through the agent's transformer, defines each class it wove in a fresh
 * {@link WeavingVerificationLoader} and links it, which is when the JVM verifies its bytecode.
 */
final class WeavingVerificationCorpus {

  /** Where woven code calls: a method that calls here was woven. */
  private static final String AGENT_PACKAGES = "io/tollgate/";

  final String name;
  private final List<Path> jars;

  private WeavingVerificationCorpus(String name, List<Path> jars) {
    this.name = name;
    this.jars = jars;
  }

  /**
   * The corpus in {@code folder}: its jars, in its sub-folders too (a server's distribution
   * unpacked), in path order, which is the class path's.
   */
  static WeavingVerificationCorpus in(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      List<Path> jars = files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted()
          .collect(Collectors.toList());
      return new WeavingVerificationCorpus(folder.getFileName().toString(), jars);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many of one jar's classes and methods the transformer wove. */
  static final class JarCount {
    final String jar;
    int classes;
    int methods;

    JarCount(String jar) {
      this.jar = jar;
    }
  }

  /** What weaving and linking the corpus found. */
  static final class Result {
    final String corpus;
    final int jars;
    int classesScanned;
    final Map<String, JarCount> wovenPerJar = new LinkedHashMap<>();
    /** Woven classes that the JVM linked, so verified. */
    int verified;
    /** Woven classes the verifier (or the class file parser) refused: weaving bugs. */
    final List<String> verifyErrors = new ArrayList<>();
    /**
     * Woven classes that could not be linked because a class they need is in none of the corpus's
     * jars (an optional dependency): not verified, and not a weaving bug. Class -> missing class.
     */
    final Map<String, String> missingDependencies = new TreeMap<>();

    Result(String corpus, int jars) {
      this.corpus = corpus;
      this.jars = jars;
    }

    int wovenClasses() {
      return wovenPerJar.values().stream().mapToInt(c -> c.classes).sum();
    }

    int wovenMethods() {
      return wovenPerJar.values().stream().mapToInt(c -> c.methods).sum();
    }

    /** The result as the test prints it: a summary line, then one line per jar with woven classes. */
    String describe() {
      StringBuilder text = new StringBuilder();
      text.append(String.format("%-20s %4d jars %6d classes scanned: %4d classes, %4d methods woven;"
              + " %4d linked and verified, %d verify errors, %d not linked for a missing"
              + " optional dependency%n",
          corpus, jars, classesScanned, wovenClasses(), wovenMethods(), verified,
          verifyErrors.size(), missingDependencies.size()));
      for (JarCount count : wovenPerJar.values()) {
        text.append(String.format("    %-58s %4d classes %4d methods%n",
            count.jar, count.classes, count.methods));
      }
      for (String error : verifyErrors) {
        text.append("    VERIFY ERROR ").append(error).append(System.lineSeparator());
      }
      missingDependencies.forEach((woven, missing) -> text.append("    not linked: ")
          .append(woven).append(" needs ").append(missing).append(System.lineSeparator()));
      return text.toString();
    }
  }

  Result weaveAndVerify(ClassFileTransformer transformer) throws IOException {
    Result result = new Result(name, jars.size());
    try (WeavingVerificationLoader loader = new WeavingVerificationLoader(jars, transformer)) {
      List<String> woven = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (Path jar : jars) {
        for (String className : classNames(jar)) {
          if (!seen.add(className)) {
            continue; // the same class in an earlier jar: that one is the class path's
          }
          result.classesScanned++;
          byte[] classFile = loader.wovenClassFile(className);
          if (classFile != null) {
            JarCount count = result.wovenPerJar.computeIfAbsent(
                jar.getFileName().toString(), JarCount::new);
            count.classes++;
            count.methods += wovenMethods(classFile);
            woven.add(className);
          }
        }
      }
      for (String className : woven) {
        link(loader, className, result);
      }
    }
    return result;
  }

  /**
   * Loads and links one woven class without initializing it (no static initializer of the corpus
   * runs): asking for its constructors makes the JVM link the class first, verifying it.
   */
  private static void link(ClassLoader loader, String className, Result result) {
    try {
      linked(Class.forName(className, false, loader));
      result.verified++;
    } catch (VerifyError | ClassFormatError e) {
      result.verifyErrors.add(className + ": " + e);
    } catch (NoClassDefFoundError | ClassNotFoundException e) {
      result.missingDependencies.put(className, String.valueOf(e.getMessage()));
    } catch (LinkageError e) {
      result.verifyErrors.add(className + ": " + e);
    }
  }

  /** {@code type}, linked by the JVM (so verified, for a class of a non-bootstrap loader). */
  static Class<?> linked(Class<?> type) {
    type.getDeclaredConstructors();
    return type;
  }

  /** The classes a jar holds (its base entries; a multi-release jar's variants load in their place). */
  private static List<String> classNames(Path jar) throws IOException {
    List<String> names = new ArrayList<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> entries = file.entries();
      while (entries.hasMoreElements()) {
        String entry = entries.nextElement().getName();
        if (entry.endsWith(".class") && !entry.startsWith("META-INF/")
            && !entry.endsWith("module-info.class") && !entry.endsWith("package-info.class")) {
          names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
        }
      }
    }
    return names;
  }

  /** The methods of a woven class file that call the agent. */
  private static int wovenMethods(byte[] classFile) {
    int[] count = {0};
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          private boolean callsAgent;

          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
              boolean isInterface) {
            if (!callsAgent && owner.startsWith(AGENT_PACKAGES)) {
              callsAgent = true;
              count[0]++;
            }
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return count[0];
  }
}
