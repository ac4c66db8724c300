package io.tollgate.instrumentation;

import io.tollgate.logging.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * For {@code attach}: finds the classes the running application loaded that may declare an entry
 * point (implementations of {@code Servlet}, {@code Filter} and {@code HandlerAdapter}, Jersey's
 * invoker and Grizzly's container), and has the JVM retransform them, in small batches so that no
 * single pause is long. The transformer then weaves those that do declare one.
 */
public final class LoadedEntryPoints {

  private LoadedEntryPoints() {}

  /**
   * Retransforms the loaded classes that may declare an entry point, and those of {@code
   * passedUnwoven} (class files the transformer saw before entry points were woven: {@link
   * EntryPointWeavingSwitch#turnOn}) once they are defined, listed by the JVM or not.
   */
  public static void retransform(
      Instrumentation inst,
      EntryPointWeaving weaving,
      ClassLoader agentClassLoader,
      List<EntryPointWeavingSwitch.PassedClassFile> passedUnwoven) {
    Set<String> types = weaving.declaringTypes();
    Set<Class<?>> candidates = new LinkedHashSet<>();
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (isCandidate(loaded, types, agentClassLoader) && inst.isModifiableClass(loaded)) {
        candidates.add(loaded);
      }
    }
    for (EntryPointWeavingSwitch.PassedClassFile passed : passedUnwoven) {
      Class<?> defined = defined(passed);
      if (defined != null && !candidates.contains(defined)
          && isCandidate(defined, types, agentClassLoader) && inst.isModifiableClass(defined)) {
        candidates.add(defined);
      }
    }
    Retransformation.inBatches(
        inst,
        new ArrayList<>(candidates),
        loaded -> "could not instrument " + loaded.getName()
            + " (already loaded); requests through it pass unlimited");
  }

  /**
   * The class of a class file the transformer was shown, once defined: another thread may be
   * defining it right now, and {@code Class.forName} waits for that definition (the loader's lock
   * on the name). It loads nothing the application has not begun to load. Null if it cannot be.
   */
  private static Class<?> defined(EntryPointWeavingSwitch.PassedClassFile passed) {
    try {
      return Class.forName(passed.name, false, passed.loader);
    } catch (ClassNotFoundException | LinkageError e) {
      AgentLog.debug("the class " + passed.name + " was not defined: " + e);
      return null;
    }
  }

  private static boolean isCandidate(Class<?> loaded, Set<String> types, ClassLoader agent) {
    try {
      ClassLoader loader = loaded.getClassLoader();
      return loader != null
          && loader != agent
          && !loaded.isInterface()
          && !loaded.isArray()
          && hasType(loaded, types, new HashSet<>());
    } catch (Throwable t) {
      return false; // a class the JVM cannot describe is not one we could change either
    }
  }

  /** Whether {@code type} or one of its super types is named in {@code names}. */
  private static boolean hasType(Class<?> type, Set<String> names, Set<Class<?>> seen) {
    if (type == null || !seen.add(type)) {
      return false;
    }
    if (names.contains(type.getName())) {
      return true;
    }
    for (Class<?> implemented : type.getInterfaces()) {
      if (hasType(implemented, names, seen)) {
        return true;
      }
    }
    return hasType(type.getSuperclass(), names, seen);
  }
}
