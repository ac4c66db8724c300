package io.tollgate.agent;

/**
 * Whether the application installs its own {@code java.util.logging} manager after the agent has
 * started, in which case the agent must not touch {@code java.util.logging} first.
 *
 * <p>{@code java.util.logging} takes the manager that {@code java.util.logging.manager} names when
 * it is first used, once for the JVM. The engine's start uses it: Caffeine asks
 * {@code System.getLogger} for its logger, which for a library outside the JDK means
 * {@code java.util.logging}, and so does the Redis client's Reactor. JBoss Modules (WildFly, JBoss
 * EAP) sets the property in its {@code main} and its server refuses to start with another manager
 * (WFLYLOG0078); an application that names a manager its own class loader brings would lose its
 * logging. For those the start waits for the first request, when the application is serving and
 * its logging is set up (the same care the OpenTelemetry and Datadog agents take).
 *
 * <p>The agent argument {@code custom-log-manager=true} asks for the wait where it cannot be
 * detected (an application that sets the property in its own {@code main});
 * {@code custom-log-manager=false} starts at once whatever was detected.
 */
final class ApplicationLogManager {

  static final String ARGUMENT = "custom-log-manager";
  static final String PROPERTY = "java.util.logging.manager";

  private ApplicationLogManager() {}

  /** Why the start should wait for the first request, or null to start at once. */
  static String reasonToWait(AgentArguments arguments) {
    return reasonToWait(
        arguments.get(ARGUMENT),
        System.getProperty(PROPERTY),
        System.getProperty("sun.java.command"),
        ClassLoader.getSystemClassLoader());
  }

  /**
   * @param argument the agent's {@code custom-log-manager} setting, or null
   * @param manager {@code java.util.logging.manager}, or null
   * @param javaCommand the JVM's main class or jar and arguments ({@code sun.java.command})
   * @param systemLoader where {@code java.util.logging} would look for the manager now
   */
  static String reasonToWait(
      String argument, String manager, String javaCommand, ClassLoader systemLoader) {
    if (argument != null) {
      return "true".equalsIgnoreCase(argument.trim())
          ? "the argument " + ARGUMENT + "=true says that the application installs its own"
              + " java.util.logging manager"
          : null;
    }
    if (manager != null && !manager.trim().isEmpty()
        && !manager.trim().equals("java.util.logging.LogManager")
        && systemLoader.getResource(manager.trim().replace('.', '/') + ".class") == null) {
      return PROPERTY + " names " + manager.trim() + ", which the application's class path does"
          + " not hold yet";
    }
    if (runsJBossModules(javaCommand)) {
      return "the application runs on JBoss Modules (WildFly, JBoss EAP), which installs its own"
          + " java.util.logging manager";
    }
    return null;
  }

  /** {@code java -jar jboss-modules.jar ...} or {@code java -cp ... org.jboss.modules.Main ...}. */
  private static boolean runsJBossModules(String javaCommand) {
    if (javaCommand == null) {
      return false;
    }
    String first = firstWord(javaCommand.trim());
    String file = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
    return first.equals("org.jboss.modules.Main")
        || (file.startsWith("jboss-modules") && file.endsWith(".jar"));
  }

  /**
   * {@code text} up to its first white space (as the regular expression {@code \s} has it), found
   * without one: this runs in {@code premain}, where compiling a pattern cost its classes and
   * some milliseconds of the application's main thread, interpreted.
   */
  private static String firstWord(String text) {
    int end = 0;
    while (end < text.length() && !isWhiteSpace(text.charAt(end))) {
      end++;
    }
    return text.substring(0, end);
  }

  private static boolean isWhiteSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }
}
