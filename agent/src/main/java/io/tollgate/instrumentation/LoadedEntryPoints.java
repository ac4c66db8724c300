package io.tollgate.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
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

  public static void retransform(
      Instrumentation inst, EntryPointWeaving weaving, ClassLoader agentClassLoader) {
    Set<String> types = weaving.declaringTypes();
    List<Class<?>> candidates = new ArrayList<>();
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (isCandidate(loaded, types, agentClassLoader) && inst.isModifiableClass(loaded)) {
        candidates.add(loaded);
      }
    }
    Retransformation.inBatches(
        inst,
        candidates,
        loaded -> "could not instrument " + loaded.getName()
            + " (already loaded); requests through it pass unlimited");
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
