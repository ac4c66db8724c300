package io.tollgate.instrumentation;

import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.logging.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The entry points in the JDK's own classes (the HTTP clients the application calls out with):
 * classes of the bootstrap and platform loaders, in named modules, which {@link
 * EntryPointTransformer} otherwise never looks at. Only the classes named by a module's {@link
 * EntryPointMethod#inClass} in a JDK package are woven there.
 *
 * <p>Two things make their woven code work. Their modules must read the bootstrap loader's unnamed
 * module, where the bridge is ({@link Instrumentation#redefineModule}): without it, the first
 * call fails with {@code IllegalAccessError}. And the classes are often loaded before the agent
 * (at {@code attach} always): they are retransformed once the transformer is in place.
 */
public final class JdkEntryPoints {

  private JdkEntryPoints() {}

  /** Whether {@code className} (internal form) names a JDK class with entry points. */
  static boolean isJdkClass(String className) {
    return className.startsWith("java/") || className.startsWith("javax/")
        || className.startsWith("sun/") || className.startsWith("jdk/")
        || className.startsWith("com/sun/");
  }

  /** The JDK classes the modules weave, by binary name. */
  static Set<String> classes(EntryPointWeaving weaving) {
    Set<String> jdk = new HashSet<>();
    for (String type : weaving.namedClasses()) {
      if (isJdkClass(type.replace('.', '/'))) {
        jdk.add(type);
      }
    }
    return jdk;
  }

  /**
   * Lets the JDK modules that declare woven classes read the bridge's module, then turns {@code
   * weavingFromNow} on for their classes as they load, then retransforms those already loaded,
   * and those whose class files passed unwoven before (some may still be being defined on another
   * thread: {@link JdkWeavingSwitch}). Call after the transformer is added. A failure leaves the
   * JDK's clients unwoven (their calls unlimited), and is logged.
   *
   * <p>In that order because a JDK class woven before its module reads the bridge's would fail
   * the application's calls through it ({@code IllegalAccessError}). So it may run off {@code
   * premain}, on the agent's start-up thread: changing two modules costs the JDK a few classes and
   * method handles of its own, which the application's main thread need not wait for, and the
   * JDK's clients decide nothing before the engine is installed anyway.
   */
  public static void prepare(
      Instrumentation inst, EntryPointWeaving weaving, JdkWeavingSwitch weavingFromNow) {
    Set<String> names = classes(weaving);
    if (names.isEmpty()) {
      return;
    }
    Module bridge = TollgateBridge.class.getModule();
    Set<String> modules = new HashSet<>();
    for (String name : names) {
      modules.add(moduleOf(name));
    }
    // No lambdas here: this runs in premain, on the application's main thread, where each one is a
    // class spun at run time
    for (String moduleName : modules) {
      Module module = ModuleLayer.boot().findModule(moduleName).orElse(null);
      if (module == null) {
        continue;
      }
      try {
        inst.redefineModule(module, Collections.singleton(bridge), Collections.emptyMap(),
            Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
      } catch (RuntimeException e) {
        AgentLog.warn("the JDK module " + moduleName + " cannot be given access to the agent;"
            + " its HTTP client's calls pass unlimited: " + e);
      }
    }
    Map<String, ClassLoader> passedUnwoven = weavingFromNow.turnOn();
    Set<Class<?>> unwoven = new LinkedHashSet<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (names.contains(c.getName())) {
        unwoven.add(c);
      }
    }
    for (Map.Entry<String, ClassLoader> passed : passedUnwoven.entrySet()) {
      Class<?> c = defined(passed.getKey(), passed.getValue());
      if (c != null) {
        unwoven.add(c);
      }
    }
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : unwoven) {
      if (inst.isModifiableClass(c)) {
        loaded.add(c);
      }
    }
    if (loaded.isEmpty()) {
      return; // at premain, as a rule
    }
    Retransformation.inBatches(inst, loaded, c -> "could not instrument " + c.getName()
        + " (already loaded); outbound calls through it pass unlimited");
  }

  /**
   * The class {@code name} whose class file {@code loader} (null: the boot loader) has shown the
   * transformer, once defined: the JVM lists a class only then, and another thread may be defining
   * it right now. {@code Class.forName} waits for that definition (the loader's lock on the name)
   * and gives the class it defined; it loads nothing the application has not begun to load. Null
   * if it cannot be loaded.
   */
  private static Class<?> defined(String name, ClassLoader loader) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      AgentLog.debug("the JDK class " + name + " was not defined: " + e);
      return null;
    }
  }

  /** The JDK module of a woven JDK class. */
  private static String moduleOf(String className) {
    return className.startsWith("jdk.internal.net.http.") ? "java.net.http" : "java.base";
  }
}
