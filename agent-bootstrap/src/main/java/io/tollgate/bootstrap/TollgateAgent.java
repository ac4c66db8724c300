package io.tollgate.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;

/**
 * The agent's entry point ({@code Premain-Class} and {@code Agent-Class}), loaded by the system
 * class loader.
 *
 * <p>It does as little as possible: it puts the bridge which woven entry points call in the
 * bootstrap class loader ({@link BridgeInBootLoader}), so that it is visible from every class
 * loader, and hands over to {@link AgentStarter} there. It never refers to a class of the bridge
 * directly: a class resolved from here would be loaded twice, once by each loader, and the two
 * copies would not share state. It never throws: a failing agent must not stop the application
 * from starting.
 */
public final class TollgateAgent {

  private TollgateAgent() {}

  /** The package of the classes that woven code calls: every class loader must show it. */
  private static final String BRIDGE_PACKAGE = "io.tollgate.bootstrap";
  private static final String STATUS_REPORT = "status-report";
  private static final String JBOSS_MODULES_SYSTEM_PACKAGES = "jboss.modules.system.pkgs";

  public static void premain(String agentArgs, Instrumentation inst) {
    showBridgeToJBossModules();
    start(agentArgs, inst, true);
  }

  public static void agentmain(String agentArgs, Instrumentation inst) {
    start(agentArgs, inst, false);
  }

  private static synchronized void start(String agentArgs, Instrumentation inst, boolean atStartup) {
    boolean status = !atStartup && isStatusRequest(agentArgs);
    if (status && !BridgeInBootLoader.inBootLoader()) {
      // `status` asks the agent running here; with none, it must not start one. The command
      // finds its report empty and says so.
      return;
    }
    try {
      File jar = agentJar();
      if (!status) {
        // Not for `status`, whose agent put it there already
        BridgeInBootLoader.install(inst, jar);
      }
      Class<?> starter = Class.forName(BridgeInBootLoader.STARTER, true, null);
      starter
          .getMethod("start", String.class, Instrumentation.class, boolean.class, File.class)
          .invoke(null, agentArgs, inst, atStartup, jar);
    } catch (Throwable t) {
      System.err.println("[tollgate] ERROR the agent could not start; the application runs without"
          + " rate limiting: " + t);
      t.printStackTrace();
    }
  }

  /**
   * Adds the bridge's package to {@code jboss.modules.system.pkgs}, the packages JBoss Modules
   * (WildFly, JBoss EAP) lets every module load from the application class loader, and so from the
   * bootstrap class path: without it, a module such as the servlet API's cannot see the bridge its
   * woven {@code HttpServlet} calls. JBoss Modules reads the property once, as it starts, after
   * {@code premain}; its packages are added to none by default, so setting the property where it
   * is absent changes nothing else. After {@code attach} it is too late for this; the agent's
   * woven {@code loadClass} does the same there. Other JVMs ignore the property.
   */
  private static void showBridgeToJBossModules() {
    try {
      String packages = withBridgePackage(System.getProperty(JBOSS_MODULES_SYSTEM_PACKAGES));
      if (packages != null) {
        System.setProperty(JBOSS_MODULES_SYSTEM_PACKAGES, packages);
      }
    } catch (Throwable t) {
      // A security manager that forbids it: the woven loadClass shows the bridge all the same.
    }
  }

  /**
   * The list {@code packages} (a value of {@code jboss.modules.system.pkgs}, or null) with the
   * bridge's package added at its end; null when it shows the bridge already (it lists the
   * package or one that holds it).
   */
  static String withBridgePackage(String packages) {
    if (packages == null || packages.trim().isEmpty()) {
      return BRIDGE_PACKAGE;
    }
    for (String listed : packages.split(",")) {
      String name = listed.trim();
      boolean holdsBridge = BRIDGE_PACKAGE.equals(name) || BRIDGE_PACKAGE.startsWith(name + ".");
      if (!name.isEmpty() && holdsBridge) {
        return null;
      }
    }
    return packages + "," + BRIDGE_PACKAGE;
  }

  /**
   * The {@code status} command's attach: its arguments name {@code status-report} (the agent's
   * AgentArguments.STATUS_REPORT). {@link AgentStarter#isStatusRequest}'s twin: this class may
   * not refer to it.
   */
  private static boolean isStatusRequest(String agentArgs) {
    if (agentArgs == null) {
      return false;
    }
    for (String item : agentArgs.split(",")) {
      if (item.trim().startsWith(STATUS_REPORT + "=")) {
        return true;
      }
    }
    return false;
  }

  private static File agentJar() throws Exception {
    return new File(
        TollgateAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
