package io.tollgate.bootstrap;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Puts the bridge, the classes of this package that woven code and the isolated agent share, in
 * the bootstrap class loader, where every class loader finds them.
 *
 * <p>Agents usually append their jar to the bootstrap class path for this. Tollgate did; but then
 * the JVM prints "Sharing is only supported for boot loader classes because bootstrap classpath has
 * been appended" on the application's standard error (JDK 11 to 25: a line the application never
 * printed, which log collectors and alerts on stderr pick up), and the bootstrap loader searches
 * the agent's whole jar, some 6,000 entries, for each class an application's loader asks it for.
 * So the bridge's classes are defined in the bootstrap loader one by one ({@link
 * BootLoaderDefiner}): it holds those and nothing else, and the JVM says nothing. Where that cannot
 * be done (a JVM without the JDK's internal {@code Unsafe}, a module change refused), the jar is
 * appended as before, and the reason logged. One difference shows: the bridge's {@code
 * Class.getPackage()} is null (the JVM knows no class path entry the package came from), so the
 * agent asks {@code getPackageName()}.
 *
 * <p>Runs in the system class loader, called by {@link TollgateAgent}. Like it, it never refers to
 * a class of the bridge: that class would be loaded here, a second copy not shared with the rest.
 */
final class BridgeInBootLoader {

  /**
   * The classes defined in the bootstrap loader, each after its super types among them: every
   * class of this package but {@link #STAYS_IN_SYSTEM_LOADER}'s (BridgeInBootLoaderTest checks
   * both). A class added to the package is added here.
   */
  static final String[] CLASSES = {
    "io.tollgate.bootstrap.AgentClassLoader",
    "io.tollgate.bootstrap.AgentLogSink",
    "io.tollgate.bootstrap.AgentStarter",
    "io.tollgate.bootstrap.EngineReadiness",
    "io.tollgate.bootstrap.InternalErrors",
    "io.tollgate.bootstrap.OutboundCallRefused",
    "io.tollgate.bootstrap.Refusal",
    "io.tollgate.bootstrap.RefusedWhileReading",
    "io.tollgate.bootstrap.RequestGate",
    "io.tollgate.bootstrap.TollgateBridge",
  };

  /**
   * The classes of this package (by simple name; their nested classes too) that are not the
   * bridge: the agent's and the command line's entry points and this class, loaded by the system
   * class loader, and the definer, loaded by a class loader of its own.
   */
  static final String[] STAYS_IN_SYSTEM_LOADER = {
    "TollgateAgent", "TollgateMain", "BridgeInBootLoader", "BootLoaderDefiner", "package-info",
  };

  private static final String DEFINER = "io.tollgate.bootstrap.BootLoaderDefiner";
  /** A class of the bridge: when the bootstrap loader finds it, the bridge is there already. */
  static final String STARTER = "io.tollgate.bootstrap.AgentStarter";

  private BridgeInBootLoader() {}

  /**
   * Puts the bridge from {@code jarFile} in the bootstrap loader, unless it has it already (a
   * second {@code attach}, or the jar on {@code -Xbootclasspath/a}).
   */
  static void install(Instrumentation inst, File jarFile) throws IOException {
    if (inBootLoader()) {
      return;
    }
    try (JarFile jar = new JarFile(jarFile, false)) {
      define(inst, jar);
      return;
    } catch (Throwable t) {
      Throwable cause = t;
      while (cause instanceof InvocationTargetException && cause.getCause() != null) {
        cause = cause.getCause(); // the definer's reflective calls, and ours to it
      }
      System.err.println("[tollgate] WARN the bridge's classes could not be"
          + " defined in the bootstrap class loader (" + cause + "); the agent jar is appended to"
          + " the bootstrap class path instead, and the JVM may say so on standard error");
    }
    // Classes defined before the failure stay; the rest are found in the jar, the same bytes.
    inst.appendToBootstrapClassLoaderSearch(new JarFile(jarFile));
  }

  /** Whether the bootstrap loader finds the bridge, asked without initializing it. */
  static boolean inBootLoader() {
    try {
      Class.forName(STARTER, false, null);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static void define(Instrumentation inst, JarFile jar) throws Exception {
    byte[][] classFiles = new byte[CLASSES.length][];
    for (int i = 0; i < CLASSES.length; i++) {
      classFiles[i] = classFile(jar, CLASSES[i]);
    }
    // Not named here: the system class loader would load a copy of its own. (Not a
    // URLClassLoader either: opening the jar by URL loaded ~20 classes of URL connections and
    // file permissions, 8 ms of premain on a cold JVM.)
    Class<?> definer = new DefinerLoader().define(DEFINER, classFile(jar, DEFINER));
    definer.getMethod("define", Instrumentation.class, String[].class, byte[][].class)
        .invoke(null, inst, CLASSES.clone(), classFiles);
  }

  /** The class file of the class {@code name} in {@code jar}, where a class loader looks for it. */
  static byte[] classFile(JarFile jar, String name) throws IOException {
    JarEntry entry = jar.getJarEntry(name.replace('.', '/') + ".class");
    if (entry == null) {
      throw new IOException("no class file for " + name + " in " + jar.getName());
    }
    try (InputStream in = jar.getInputStream(entry)) {
      return in.readAllBytes();
    }
  }

  /**
   * A class loader for the definer alone, whose unnamed module is the definer's only. The agent
   * never weaves it: its scan of loaded class loaders passes over the bootstrap tier's classes
   * ({@code LoadedClassLoaders}).
   */
  static final class DefinerLoader extends ClassLoader {

    DefinerLoader() {
      super(null);
    }

    Class<?> define(String name, byte[] classFile) {
      return defineClass(name, classFile, 0, classFile.length);
    }
  }
}
