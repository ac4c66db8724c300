package io.tollgate.instrumentation.classloader;

import io.tollgate.instrumentation.Retransformation;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * For {@code attach} (and any class loader loaded before {@code premain}): has the JVM retransform
 * the class loader classes already loaded, so that {@link ClassLoaderTransformer} weaves their
 * {@code loadClass}. Runs before the entry points are retransformed: a running WildFly read
 * {@code jboss.modules.system.pkgs} long ago, and only its woven loaders can show its modules the
 * bridge.
 */
public final class LoadedClassLoaders {

  private LoadedClassLoaders() {}

  public static void retransform(Instrumentation inst, ClassLoader agentClassLoader) {
    List<Class<?>> candidates = new ArrayList<>();
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (isCandidate(loaded, agentClassLoader) && inst.isModifiableClass(loaded)) {
        candidates.add(loaded);
      }
    }
    if (candidates.isEmpty()) {
      return; // in premain, almost always: and no lambda spun on the application's main thread
    }
    Retransformation.inBatches(
        inst,
        candidates,
        loaded -> "could not instrument the class loader " + loaded.getName()
            + " (already loaded); entry points it loads may not reach the agent");
  }

  /**
   * A class loader class outside the JDK and the agent (its bytes say whether it is woven): the
   * agent's isolated classes, and its bootstrap tier's in the system class loader (the loader
   * that defines the bridge in the bootstrap loader in {@code premain}), are the agent's.
   */
  static boolean isCandidate(Class<?> loaded, ClassLoader agent) {
    try {
      ClassLoader definedBy = loaded.getClassLoader();
      return definedBy != null
          && definedBy != agent
          && definedBy != ClassLoader.getPlatformClassLoader()
          && ClassLoader.class.isAssignableFrom(loaded)
          && !loaded.isInterface()
          && !loaded.getName().startsWith(ClassLoaderWeaving.BOOTSTRAP_PACKAGE_PREFIX);
    } catch (Throwable t) {
      return false; // a class the JVM cannot describe is not one we could change either
    }
  }
}
