package io.tollgate.instrumentation;

import io.tollgate.diagnostics.EntryPoints;
import io.tollgate.logging.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Weaves the entry points of every class that declares one, as it loads or when {@code attach}
 * retransforms it. The agent registers it inside {@code WeavingTransformer}, which asks {@link
 * #weaveCandidate} about the classes its one look at the constant pool picked; as a transformer of
 * its own ({@link #transform}) it picks them itself.
 *
 * <p>Every class the application loads passes through here, so the common answer must be cheap:
 * {@link EntryPointClassFiles} rules out almost all of them from their constant pool, without
 * parsing them; the rest are read by {@link EntryPointWeaving}. A class that cannot be woven is
 * loaded unchanged, with a warning: requests through it pass unlimited, the application runs.
 * Classes of the JDK's boot and platform loaders (but the few JDK classes a module weaves, see
 * {@link JdkEntryPoints}) and of the agent itself are never looked at, nor
 * are those of a class loader that does not show them the bridge ({@link BridgeVisibility}): woven,
 * they would fail every request with {@code NoClassDefFoundError}; unwoven, they let it pass.
 */
public final class EntryPointTransformer implements ClassFileTransformer {

  /** The JDK's own modules outside {@code java.base}: never an entry point. */
  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  private final ClassLoader agentClassLoader;
  private final EntryPointWeaving weaving;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();
  /** The JDK classes a module weaves (its HTTP clients), internal names: see JdkEntryPoints. */
  private final Set<String> jdkClasses = new HashSet<>();

  public EntryPointTransformer(ClassLoader agentClassLoader, EntryPointWeaving weaving) {
    this.agentClassLoader = agentClassLoader;
    this.weaving = weaving;
    for (String name : JdkEntryPoints.classes(weaving)) {
      jdkClasses.add(name.replace('.', '/'));
    }
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (((loader == null || loader == PLATFORM) && !jdkClasses.contains(className))
        || loader == agentClassLoader
        || className == null
        || !weaving.classFiles().mayBeInstrumented(classfileBuffer)) {
      return null;
    }
    return weaveCandidate(loader, className, classBeingRedefined, classfileBuffer);
  }

  /** Whether {@code className} (internal form) is one of the JDK classes a module weaves. */
  public boolean weavesJdkClass(String className) {
    return jdkClasses.contains(className);
  }

  /**
   * The class file with its entry points woven, or null, for a class of an application's loader
   * that {@link EntryPointClassFiles} found may declare one.
   */
  public byte[] weaveCandidate(
      ClassLoader loader, String className, Class<?> classBeingRedefined, byte[] classfileBuffer) {
    try {
      EntryPointWeaving.WovenClass woven = weaving.weave(classfileBuffer);
      if (woven == null) {
        return null;
      }
      String name = className.replace('/', '.');
      if (!BridgeVisibility.reachedFrom(loader, name)) {
        return null;
      }
      if (logged.add(name + "@" + System.identityHashCode(loader))) {
        AgentLog.info("instrumented " + name + (classBeingRedefined != null ? " (already loaded)" : ""));
        EntryPoints.detected(woven.framework, name);
      }
      return woven.classFile;
    } catch (Throwable t) {
      AgentLog.warn("could not instrument " + className.replace('/', '.')
          + "; requests through it pass unlimited: " + t);
      return null;
    }
  }
}
