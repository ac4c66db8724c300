package io.tollgate.bootstrap;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Set;

/**
 * Defines classes in the bootstrap class loader itself, one by one, with the JDK's internal
 * {@code Unsafe.defineClass}.
 *
 * <p>Loaded by {@link BridgeInBootLoader} into a class loader of its own, which holds this class
 * alone: the JDK's internal package is exported to that loader's unnamed module only, so neither
 * the application's classes (the system class loader's unnamed module) nor anything else gains
 * access to it. Refers to JDK types only (its loader's parent is the bootstrap loader).
 */
public final class BootLoaderDefiner {

  private static final String UNSAFE = "jdk.internal.misc.Unsafe";
  private static final String UNSAFE_PACKAGE = "jdk.internal.misc";

  private BootLoaderDefiner() {}

  /**
   * Defines the classes {@code names} from their class files {@code classFiles} (same order: a
   * class's super types before it) in the bootstrap class loader. Throws if any cannot be: the
   * caller then falls back to the bootstrap class path.
   */
  public static void define(Instrumentation inst, String[] names, byte[][] classFiles)
      throws Exception {
    Module javaBase = Object.class.getModule();
    Set<Module> toThisLoaderOnly = Collections.singleton(BootLoaderDefiner.class.getModule());
    inst.redefineModule(javaBase, Collections.emptySet(),
        Collections.singletonMap(UNSAFE_PACKAGE, toThisLoaderOnly), Collections.emptyMap(),
        Collections.emptySet(), Collections.emptyMap());
    Class<?> unsafeType = Class.forName(UNSAFE);
    Object unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
    Method defineClass = unsafeType.getMethod("defineClass", String.class, byte[].class,
        int.class, int.class, ClassLoader.class, ProtectionDomain.class);
    for (int i = 0; i < names.length; i++) {
      defineClass.invoke(unsafe, names[i], classFiles[i], 0, classFiles[i].length, null, null);
    }
  }
}
