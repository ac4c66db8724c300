package io.tollgate.diagnostics;

import io.tollgate.bootstrap.AgentLogSink;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The agent's own log: standard error, every line starting with {@code [tollgate]}, and a file when
 * one is configured.
 *
 * <p>Deliberately not JUL, Log4j or SLF4J: touching the application's logging before it is set up
 * can lock in the wrong configuration (a JBoss LogManager, say), and the agent must not depend on
 * what the application ships.
 */
public final class AgentLog {

  private static volatile boolean debug;
  private static volatile Writer file;

  private AgentLog() {}

  /** Routes bootstrap-tier lines through this log too. */
  public static void installAsSink() {
    AgentLogSink.install(AgentLog::writeLine);
  }

  public static void setDebug(boolean enabled) {
    debug = enabled;
  }

  public static boolean isDebug() {
    return debug;
  }

  /** Also writes every line to {@code path} (appending). */
  public static synchronized void logToFile(String path) {
    try {
      file = new OutputStreamWriter(new FileOutputStream(path, true), StandardCharsets.UTF_8);
      info("logging to " + path + " as well");
    } catch (IOException e) {
      warn("cannot write the log file " + path + ": " + e.getMessage());
    }
  }

  public static void info(String message) {
    writeLine(AgentLogSink.PREFIX + message);
  }

  public static void warn(String message) {
    writeLine(AgentLogSink.PREFIX + "WARN " + message);
  }

  public static void error(String message) {
    writeLine(AgentLogSink.PREFIX + "ERROR " + message);
  }

  public static void error(String message, Throwable failure) {
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    writeLine(AgentLogSink.PREFIX + "ERROR " + message + System.lineSeparator() + trace);
  }

  public static void debug(String message) {
    if (debug) {
      writeLine(AgentLogSink.PREFIX + "DEBUG " + message);
    }
  }

  private static void writeLine(String line) {
    System.err.println(line);
    Writer target = file;
    if (target != null) {
      synchronized (AgentLog.class) {
        try {
          target.write(line);
          target.write(System.lineSeparator());
          target.flush();
        } catch (IOException ignored) {
          // The file is a convenience; standard error already has the line.
        }
      }
    }
  }
}
