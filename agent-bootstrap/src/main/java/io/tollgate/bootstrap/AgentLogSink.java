package io.tollgate.bootstrap;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Consumer;

/**
 * Where the bootstrap tier writes log lines: standard error until the isolated agent installs its
 * own writer (which adds the optional log file).
 */
public final class AgentLogSink {

  public static final String PREFIX = "[tollgate] ";

  private static volatile Consumer<String> writer;

  private AgentLogSink() {}

  public static void install(Consumer<String> lineWriter) {
    writer = lineWriter;
  }

  public static void warn(String message) {
    write(PREFIX + "WARN " + message);
  }

  public static void error(String message, Throwable failure) {
    StringWriter trace = new StringWriter();
    if (failure != null) {
      failure.printStackTrace(new PrintWriter(trace));
    }
    write(PREFIX + "ERROR " + message + (failure != null ? System.lineSeparator() + trace : ""));
  }

  public static void write(String line) {
    Consumer<String> target = writer;
    if (target != null) {
      try {
        target.accept(line);
        return;
      } catch (Throwable ignored) {
        // Fall back to standard error below.
      }
    }
    System.err.println(line);
  }
}
