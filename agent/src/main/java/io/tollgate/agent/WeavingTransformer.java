package io.tollgate.agent;

import io.tollgate.instrumentation.EntryPointClassFiles;
import io.tollgate.instrumentation.EntryPointTransformer;
import io.tollgate.instrumentation.EntryPointWeaving;
import io.tollgate.instrumentation.EntryPointWeavingSwitch;
import io.tollgate.instrumentation.JdkWeavingSwitch;
import io.tollgate.instrumentation.classloader.ClassLoaderTransformer;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;

/**
 * The agent's one class file transformer: one walk over each class file's constant pool ({@link
 * EntryPointClassFiles#scan}) says whether the class mentions {@code loadClass} (a class loader to
 * weave, {@link ClassLoaderTransformer}), may declare an entry point ({@link
 * EntryPointTransformer}), or, for almost every class the application loads, neither.
 *
 * <p>Two transformers registered side by side walked every class's pool twice, once each, which
 * the start of an application pays for every class it loads. A class loader is woven before the
 * entry points of the same class file are, as when its transformer was registered first.
 *
 * <p>Here, where the agent is put together, because it joins two weavings that know nothing of
 * each other: the class loaders' and the entry points'.
 *
 * <p>Entry points are woven once {@link #weaveEntryPoints} is called: {@code attach} weaves the
 * running class loaders first, then starts the engine, then the entry points.
 */
public final class WeavingTransformer implements ClassFileTransformer {

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  private final ClassLoader agentClassLoader;
  private final EntryPointClassFiles classFiles;
  private final ClassLoaderTransformer loaders;
  private final EntryPointTransformer entryPoints;
  /** Whether the application's entry points are woven: from {@link #weaveEntryPoints} on. */
  private final EntryPointWeavingSwitch appEntryPoints = new EntryPointWeavingSwitch();
  /** Whether the JDK's own classes with entry points are woven: once their modules read ours. */
  private final JdkWeavingSwitch jdkEntryPoints = new JdkWeavingSwitch();

  public WeavingTransformer(ClassLoader agentClassLoader, EntryPointWeaving weaving) {
    this.agentClassLoader = agentClassLoader;
    this.classFiles = weaving.classFiles();
    this.loaders = new ClassLoaderTransformer(agentClassLoader);
    this.entryPoints = new EntryPointTransformer(agentClassLoader, weaving);
  }

  /**
   * From now on, entry points are woven too (class loaders always are).
   *
   * @return the class files that may declare an entry point and passed unwoven before: {@code
   *     attach} retransforms them with the loaded classes ({@link EntryPointWeavingSwitch})
   */
  public List<EntryPointWeavingSwitch.PassedClassFile> weaveEntryPoints() {
    return appEntryPoints.turnOn();
  }

  /**
   * Turned on, the entry points of the JDK's own classes are woven too (its HTTP clients): by
   * {@code JdkEntryPoints.prepare}, once their modules read the bridge's, after {@link
   * #weaveEntryPoints}.
   */
  public JdkWeavingSwitch jdkEntryPoints() {
    return jdkEntryPoints;
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (className == null || loader == agentClassLoader) {
      return null;
    }
    if (loader == null || loader == PLATFORM) {
      // the JDK's classes are never looked at, but the few HTTP clients an outbound module weaves
      return entryPoints.weavesJdkClass(className) && jdkEntryPoints.weaves(loader, className)
              && appEntryPoints.isOn()
          ? entryPoints.weaveCandidate(loader, className, classBeingRedefined, classfileBuffer)
          : null;
    }
    int found = classFiles.scan(classfileBuffer);
    if (found == 0) {
      return null;
    }
    byte[] woven = null;
    if ((found & EntryPointClassFiles.MENTIONS_LOAD_CLASS) != 0) {
      woven = loaders.weaveMentioningLoadClass(className, classBeingRedefined, classfileBuffer);
    }
    if ((found & EntryPointClassFiles.MAY_DECLARE_ENTRY_POINT) != 0
        && appEntryPoints.weaves(loader, className)) {
      byte[] withEntryPoints =
          entryPoints.weaveCandidate(
              loader, className, classBeingRedefined, woven != null ? woven : classfileBuffer);
      if (withEntryPoints != null) {
        woven = withEntryPoints;
      }
    }
    return woven;
  }
}
