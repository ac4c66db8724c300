package io.tollgate.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * The agent's entry point ({@code Premain-Class} and {@code Agent-Class}), loaded by the system
 * class loader.
 *
 * <p>It does as little as possible: it appends the agent jar to the bootstrap class path, so that
 * the bridge which woven entry points call is visible from every class loader, and hands over to
 * {@link AgentStarter} there. It never refers to another Tollgate class directly: a class resolved
 * from here before the jar is on the bootstrap path would be loaded twice, once by each loader,
 * and the two copies would not share state. It never throws: a failing agent must not stop the
 * application from starting.
 */
public final class TollgateAgent {

  private TollgateAgent() {}

  public static void premain(String agentArgs, Instrumentation inst) {
    start(agentArgs, inst, true);
  }

  public static void agentmain(String agentArgs, Instrumentation inst) {
    start(agentArgs, inst, false);
  }

  private static synchronized void start(String agentArgs, Instrumentation inst, boolean atStartup) {
    try {
      File jar = agentJar();
      inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
      Class<?> starter = Class.forName("io.tollgate.bootstrap.AgentStarter", true, null);
      starter
          .getMethod("start", String.class, Instrumentation.class, boolean.class, File.class)
          .invoke(null, agentArgs, inst, atStartup, jar);
    } catch (Throwable t) {
      System.err.println("[tollgate] ERROR the agent could not start; the application runs without"
          + " rate limiting: " + t);
      t.printStackTrace();
    }
  }

  private static File agentJar() throws Exception {
    return new File(
        TollgateAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
