package io.tollgate.instrumentation;

import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.logging.AgentLog;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the woven code of a class would reach the bridge: whether the class loader that defines
 * it resolves {@code TollgateBridge} to the agent's own, the bootstrap loader's.
 *
 * <p>Asked before an entry point is woven. Where the answer is no (a loader that shows its classes
 * only some packages and whose {@code loadClass} the agent could not weave, or one that has a copy
 * of the agent jar of its own), the class is left as it is: its requests pass unlimited, rather
 * than each failing with {@code NoClassDefFoundError}. One error per kind of loader names it and
 * the fix.
 *
 * <p>The answer is the one the woven code gets: the JVM resolves the bridge through the class's
 * defining loader, the one asked here, and {@code Class.forName} records the class it returned for
 * that loader, so that later resolutions from it find the same class without asking again. Hence
 * no handler for {@code NoClassDefFoundError} around the woven calls: where this says yes, the
 * bridge is there; where it says no, nothing calls it.
 */
public final class BridgeVisibility {

  private static final String BRIDGE = TollgateBridge.class.getName();

  /** The answer per class loader; weak, so that an undeployed application's loader can go. */
  private static final Map<ClassLoader, Boolean> KNOWN =
      Collections.synchronizedMap(new WeakHashMap<>());
  /** The kinds of loader (class names) already named in an error. */
  private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

  private BridgeVisibility() {}

  /**
   * Whether {@code loader} resolves the bridge to the agent's; if not, logs (once per kind of
   * loader) that {@code className}, and the other entry points it defines, are left unwoven.
   */
  public static boolean reachedFrom(ClassLoader loader, String className) {
    Boolean known = KNOWN.get(loader);
    if (known != null) {
      return known;
    }
    boolean reached;
    String seen;
    try {
      Class<?> resolved = Class.forName(BRIDGE, false, loader);
      reached = resolved == TollgateBridge.class;
      seen = reached
          ? null
          : "it has a copy of its own, from " + describe(resolved.getClassLoader());
    } catch (Throwable t) {
      reached = false;
      seen = t.toString();
    }
    KNOWN.put(loader, reached);
    if (!reached && REPORTED.add(loader.getClass().getName())) {
      AgentLog.error("the class loader " + describe(loader) + " does not show its classes the"
          + " agent's bridge (" + seen + "): " + className + " and the other entry points it"
          + " loads are left as they are, and requests through them pass unlimited. "
          + fixFor(loader.getClass().getName()));
    }
    return reached;
  }

  /** What an operator can change so that this kind of loader shows the bridge. */
  static String fixFor(String kind) {
    // Not getPackage(): null for a class the bootstrap loader defined from no class path entry
    String bootstrapPackage = TollgateBridge.class.getPackageName();
    if (kind.startsWith("org.jboss.modules.")) {
      return "Fix: add " + bootstrapPackage + " to the JVM option -Djboss.modules.system.pkgs"
          + " (for example -Djboss.modules.system.pkgs=org.jboss.byteman," + bootstrapPackage
          + ") and restart";
    }
    if (kind.startsWith("org.apache.felix.") || kind.startsWith("org.eclipse.osgi.")
        || kind.contains(".osgi.")) {
      return "Fix: add " + bootstrapPackage + ".* to the OSGi framework property"
          + " org.osgi.framework.bootdelegation and restart";
    }
    return "Fix: have this class loader delegate " + bootstrapPackage + ".* to the bootstrap"
        + " class loader (its parent chain or its boot delegation), or start the agent with"
        + " -javaagent so that it can instrument the loader as it loads";
  }

  private static String describe(ClassLoader loader) {
    if (loader == null) {
      return "the bootstrap class loader";
    }
    String text;
    try {
      text = loader.toString();
    } catch (Throwable t) {
      text = loader.getClass().getName();
    }
    // a toString that does not say what kind of loader it is (the default does) gets the class
    Class<?> kind = loader.getClass();
    return text.contains(kind.getName()) || text.contains(kind.getSimpleName())
        ? text
        : text + " (" + kind.getName() + ")";
  }
}
