package io.tollgate.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;

/**
 * Starts the isolated agent once per JVM, on the bootstrap class loader.
 *
 * <p>A second {@code attach} to the same JVM does not instrument again: it passes its arguments
 * to the running agent, which switches to the new configuration.
 */
public final class AgentStarter {

  private static final String AGENT_MAIN = "io.tollgate.agent.AgentMain";
  /** The agent's AgentArguments.STATUS_REPORT. */
  private static final String STATUS_REPORT = "status-report";

  private static Class<?> agentMain;

  private AgentStarter() {}

  public static synchronized void start(
      String agentArgs, Instrumentation inst, boolean atStartup, File jar) throws Exception {
    if (agentMain != null) {
      Method reattach = agentMain.getMethod("reattach", String.class);
      reattach.invoke(null, agentArgs);
      return;
    }
    if (!atStartup && isStatusRequest(agentArgs)) {
      // The jar is here but no agent started (its start failed): `status` starts none.
      return;
    }
    ClassLoader isolated = new AgentClassLoader(jar, ClassLoader.getPlatformClassLoader());
    Class<?> main = Class.forName(AGENT_MAIN, true, isolated);
    main.getMethod("start", String.class, Instrumentation.class, boolean.class, File.class)
        .invoke(null, agentArgs, inst, atStartup, jar);
    agentMain = main;
  }

  /** Whether {@code agentArgs} are the {@code status} command's: they name {@code status-report}. */
  static boolean isStatusRequest(String agentArgs) {
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
}
