package io.tollgate.logging;

import java.io.PrintStream;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The agent's lines where a server captures standard error into its own log: WildFly (and JBoss
 * EAP) replace {@code System.err} with JBoss stdio's stream, which logs every line as
 * {@code ERROR [stderr]}, whatever it says. There the lines go to {@code java.util.logging}'s
 * logger {@code tollgate}, at their own level, and show in {@code server.log} as
 * {@code INFO [tollgate] loaded 3 rules}.
 *
 * <p>Only then: {@code java.util.logging} takes its manager once, when first used, and the agent
 * must not be first (see {@code ApplicationLogManager}). A server replaces {@code System.err}
 * after its log manager is set up (the capture logs through it), so seeing JBoss stdio's stream
 * is proof that asking for the manager installs nothing. Everywhere else the lines stay on
 * standard error, each starting with {@code [tollgate]}.
 */
final class ServerLogging {

  static final String CATEGORY = "tollgate";
  private static final String JBOSS_STDIO = "org.jboss.stdio.";
  private static final String JBOSS_LOG_MANAGER = "org.jboss.logmanager.LogManager";

  /** The logger once found; a strong reference, as java.util.logging keeps loggers weakly. */
  private static volatile Logger logger;
  /** The standard error last looked at: while it is the same, the answer is the same. */
  private static volatile PrintStream lookedAt;
  private static volatile Level warn;
  private static volatile Level error;

  private ServerLogging() {}

  /**
   * Logs {@code message} at {@code level} ({@code INFO}, {@code WARN}, {@code ERROR} or
   * {@code DEBUG}) through the server's log; false when there is none, and the line belongs on
   * standard error.
   */
  static boolean log(String level, String message) {
    Logger target = logger();
    if (target == null) {
      return false;
    }
    try {
      // debug=true asked for these lines: at the server's DEBUG level its INFO root would drop them
      target.log(levelNamed(level), level.equals("DEBUG") ? "DEBUG " + message : message);
      return true;
    } catch (Throwable t) {
      return false; // standard error has it then
    }
  }

  private static Logger logger() {
    Logger known = logger;
    if (known != null) {
      return known;
    }
    PrintStream err = System.err;
    if (err == lookedAt) {
      return null;
    }
    synchronized (ServerLogging.class) {
      if (logger == null && err != lookedAt) {
        logger = serversLogger(err);
        lookedAt = err;
      }
      return logger;
    }
  }

  /** The {@code tollgate} logger when {@code err} is a JBoss capture; null otherwise. */
  static Logger serversLogger(PrintStream err) {
    if (err == null || !err.getClass().getName().startsWith(JBOSS_STDIO)) {
      return null;
    }
    try {
      if (!LogManager.getLogManager().getClass().getName().equals(JBOSS_LOG_MANAGER)) {
        return null;
      }
      // JBoss LogManager's own names for its levels, as server.log prints them (WARN, not WARNING)
      warn = knownLevel("WARN", Level.WARNING);
      error = knownLevel("ERROR", Level.SEVERE);
      return Logger.getLogger(CATEGORY);
    } catch (Throwable t) {
      return null;
    }
  }

  private static Level levelNamed(String level) {
    switch (level) {
      case "WARN":
        return warn;
      case "ERROR":
        return error;
      default:
        return Level.INFO;
    }
  }

  private static Level knownLevel(String name, Level otherwise) {
    try {
      return Level.parse(name);
    } catch (IllegalArgumentException unknown) {
      return otherwise;
    }
  }
}
