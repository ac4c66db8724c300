package io.tollgate.cli;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import javax.management.ObjectName;

/**
 * Has this JVM compile with C1 only from now on: for {@code validate} of a long rules file, in
 * its own short-lived JVM, never in the agent's (the application's JIT is not ours to change).
 *
 * <p>Reading a file of 10,000 rules runs SnakeYAML's scanner and the parsers hot for a second or
 * two, long enough for C2 to start on their largest methods (SnakeYAML's {@code
 * ScannerImpl.fetchMoreTokens}, {@code ParserImpl.parseNode}) but too short for its code to pay
 * back: with C2 the JVM spent about twice the CPU of a C1-only run (busy 2-core machine, 3.1 s
 * against 1.5 s), more than half of it compiling. The same as {@code -XX:TieredStopAtLevel=1},
 * which a jar cannot put on its own command line: a compiler directive excluding C2, added
 * through the JVM's diagnostic command MBean ({@code jcmd PID Compiler.directives_add}).
 *
 * <p>The directive goes straight to the JVM's own diagnostic command: the jar's manifest opens
 * {@code jdk.management/com.sun.management.internal} (an {@code Add-Opens}, which the JVM honours
 * for the jar given to {@code java -jar} only, never for an agent jar), so that this process calls
 * the one command it needs ({@link #addDirectly}). Through the platform MBean server instead, as a
 * fallback where that is not possible (another JVM, the jar run from a class path), the same
 * directive costs ~0.25 s of CPU more: the server registers every platform MXBean, ~300 JDK classes
 * (measured on a busy 2-core machine, a JVM that does nothing else: 0.15 s of CPU, 0.17 s direct,
 * 0.40 s through the server).
 *
 * <p>Only for files at least {@link #LONG_FILE_BYTES} long: below that C2 costs a short file less
 * than excluding it does (was 256 KiB while the directive went through the MBean server).
 * Anything that goes wrong leaves the JIT as it was: validate is only slower.
 */
final class QuickCompiles {

  /**
   * About 80 rules of the per-tenant shape (~100 bytes each). With the directive costing ~0.04 s
   * of CPU (not the MBean server's ~0.25 s), C1 only pays from short files on: {@code
   * -XX:TieredStopAtLevel=1} against the default on a busy 2-core machine, CPU of the JVM, 100
   * rules (10 KB) 0.44-0.48 s against 0.54-0.64 s, 1,000 rules 0.69-0.88 s against 1.02-1.12 s.
   * A file of a few rules has nothing for C2 to compile, and keeps the JIT as it is.
   */
  static final long LONG_FILE_BYTES = 8 * 1024;

  private static final String NO_C2 = "[{ match: \"*.*\", c2: { Exclude: true } }]";

  private QuickCompiles() {}

  /**
   * For files of {@code totalBytes} in all: C1 only when they are long. The directive is added on
   * a thread of its own, beside the main thread's reading of the files (its ~0.04 s, the JDK's
   * management classes and native library loaded, are no longer ahead of the first line read): C2
   * starts only once a method has run thousands of times, later than that. Join the thread
   * returned (null: none started) before the JVM exits, so that what it loads is loaded whatever
   * the file's length.
   */
  static Thread forFilesOf(long totalBytes) {
    if (totalBytes < LONG_FILE_BYTES) {
      return null;
    }
    // a class, not a lambda: the first lambda's bootstrap would be on the main thread
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        excludeC2();
      }
    }, "tollgate-validate-jit");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void excludeC2() {
    File directives = null;
    try {
      directives = File.createTempFile("tollgate-validate-jit", ".json");
      Files.write(directives.toPath(), NO_C2.getBytes(StandardCharsets.US_ASCII));
      if (!addDirectly(directives)) {
        ManagementFactory.getPlatformMBeanServer().invoke(
            new ObjectName("com.sun.management:type=DiagnosticCommand"),
            "compilerDirectivesAdd",
            new Object[] {new String[] {directives.getPath()}},
            new String[] {String[].class.getName()});
      }
    } catch (Exception | LinkageError e) {
      // another JVM, no jdk.management, a read-only temp directory: C2 stays, validate is slower
    } finally {
      if (directives != null) {
        directives.delete();
      }
    }
  }

  /**
   * {@code Compiler.directives_add FILE} run by the JVM's diagnostic command implementation,
   * without the MBean server around it: what {@code jcmd} runs, in this process. False when the
   * package is not open to us (not run by {@code java -jar}) or the JVM is not HotSpot's.
   */
  static boolean addDirectly(File file) {
    try {
      // The provider's class initializer loads the native library of the command's methods.
      Class.forName("com.sun.management.internal.PlatformMBeanProviderImpl");
      Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
      Method instance = impl.getDeclaredMethod("getDiagnosticCommandMBean");
      instance.setAccessible(true);
      Object commands = instance.invoke(null);
      if (commands == null) {
        return false; // this JVM runs no diagnostic commands remotely
      }
      Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
      execute.setAccessible(true);
      Object answer = execute.invoke(commands, "Compiler.directives_add " + file.getPath());
      // "1 compiler directives added"
      return answer instanceof String && ((String) answer).contains("added");
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false; // not opened to us, another JVM's internals: the MBean server then
    }
  }
}
