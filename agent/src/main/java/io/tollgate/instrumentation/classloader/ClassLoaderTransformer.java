package io.tollgate.instrumentation.classloader;

import io.tollgate.logging.AgentLog;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The class file transformer that makes every class loader answer the bridge's package from the
 * bootstrap loader ({@link LoadClassWeaver}), as the loader classes load or when {@code attach}
 * retransforms them. The agent registers it inside {@code WeavingTransformer}, which asks it
 * first, so that a loader is woven before the first entry point it defines is checked
 * ({@link io.tollgate.instrumentation.BridgeVisibility}).
 *
 * <p>The JDK's own loaders (classes of the boot loader) ask the bootstrap loader first already, and
 * are never looked at, nor are the platform loader's classes or the agent's. A loader class that
 * cannot be woven is loaded unchanged: the check then keeps the entry points it loads unwoven.
 */
public final class ClassLoaderTransformer implements ClassFileTransformer {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  private final ClassLoader agentClassLoader;
  private final ClassLoaderWeaving weaving = ClassLoaderWeaving.ofBootstrapPackage();

  public ClassLoaderTransformer(ClassLoader agentClassLoader) {
    this.agentClassLoader = agentClassLoader;
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (loader == null || loader == PLATFORM || loader == agentClassLoader || className == null) {
      return null;
    }
    return weave(className, classBeingRedefined, classfileBuffer, false);
  }

  /**
   * The class file with its {@code loadClass} woven, or null, for a class of an application's
   * loader whose constant pool is known to hold {@code loadClass}: the agent's one transformer
   * ({@code WeavingTransformer}) has read it already.
   */
  public byte[] weaveMentioningLoadClass(
      String className, Class<?> classBeingRedefined, byte[] classfileBuffer) {
    return weave(className, classBeingRedefined, classfileBuffer, true);
  }

  private byte[] weave(
      String className, Class<?> classBeingRedefined, byte[] classfileBuffer, boolean scanned) {
    try {
      byte[] woven =
          scanned ? weaving.weaveMentioning(classfileBuffer) : weaving.weave(classfileBuffer);
      if (woven != null) {
        AgentLog.debug("class loader " + className.replace('/', '.')
            + " asks the bootstrap loader for " + ClassLoaderWeaving.BOOTSTRAP_PACKAGE_PREFIX + "*"
            + (classBeingRedefined != null ? " (already loaded)" : ""));
      }
      return woven;
    } catch (Throwable t) {
      AgentLog.warn("could not instrument the class loader " + className.replace('/', '.')
          + "; entry points it loads may not reach the agent: " + t);
      return null;
    }
  }
}
