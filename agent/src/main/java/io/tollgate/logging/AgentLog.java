package io.tollgate.logging;

import io.tollgate.bootstrap.AgentLogSink;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The agent's own log: standard error, every line starting with {@code [tollgate]}, and a file when
 * one is configured. Where a server captures standard error into its log (WildFly), the lines go to
 * that log's {@code tollgate} category at their own level instead ({@link ServerLogging}).
 *
 * <p>Deliberately not JUL, Log4j or SLF4J otherwise: touching the application's logging before it
 * is set up can lock in the wrong configuration (a JBoss LogManager, say), and the agent must not
 * depend on what the application ships.
 */
public final class AgentLog {

  private static final String INFO = "INFO";
  /** The levels a line names after the prefix; a line that names none is INFO. */
  private static final String[] LEVELS_WRITTEN = {"WARN", "ERROR", "DEBUG"};

  private static volatile boolean debug;
  private static volatile Writer file;
  /** The ERROR messages of this thread since {@link #collectErrors}, or null when not asked. */
  private static final ThreadLocal<List<String>> COLLECTED_ERRORS = new ThreadLocal<>();

  private AgentLog() {}

  /**
   * From now until {@link Errors#close}, keeps the ERROR messages this thread logs (they are
   * logged as ever): an attach reports them to the operator's terminal, which otherwise never sees
   * the target JVM's standard error.
   */
  public static Errors collectErrors() {
    return new Errors();
  }

  /** The ERROR messages one thread logged while they were collected. */
  public static final class Errors implements AutoCloseable {
    private final List<String> messages = new ArrayList<>();
    private final List<String> outer = COLLECTED_ERRORS.get();

    private Errors() {
      COLLECTED_ERRORS.set(messages);
    }

    public List<String> messages() {
      return Collections.unmodifiableList(messages);
    }

    @Override
    public void close() {
      if (outer == null) {
        COLLECTED_ERRORS.remove();
      } else {
        COLLECTED_ERRORS.set(outer);
      }
    }
  }

  /**
   * Routes bootstrap-tier lines through this log too. An anonymous class, not a method reference:
   * this runs in {@code premain}, on the application's main thread, where each lambda is a class
   * spun at run time.
   */
  public static void installAsSink() {
    AgentLogSink.install(new Consumer<String>() {
      @Override
      public void accept(String line) {
        writeLine(line);
      }
    });
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
    write(INFO, message);
  }

  public static void warn(String message) {
    write("WARN", message);
  }

  public static void error(String message) {
    write("ERROR", message);
  }

  public static void error(String message, Throwable failure) {
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    write("ERROR", message + System.lineSeparator() + trace);
  }

  public static void debug(String message) {
    if (debug) {
      write("DEBUG", message);
    }
  }

  /** One line at {@code level}: the line the log file and standard error show, level and all. */
  private static void write(String level, String message) {
    String line = AgentLogSink.PREFIX + (level.equals(INFO) ? "" : level + " ") + message;
    List<String> collected = level.equals("ERROR") ? COLLECTED_ERRORS.get() : null;
    if (collected != null) {
      collected.add(message);
    }
    if (!ServerLogging.log(level, message)) {
      System.err.println(line);
    }
    toFile(line);
  }

  /** A line of the bootstrap tier ({@code [tollgate] WARN ...}), already formatted. */
  private static void writeLine(String line) {
    if (line.startsWith(AgentLogSink.PREFIX)) {
      String text = line.substring(AgentLogSink.PREFIX.length());
      for (String level : LEVELS_WRITTEN) {
        if (text.startsWith(level + " ")) {
          write(level, text.substring(level.length() + 1));
          return;
        }
      }
      write(INFO, text);
      return;
    }
    System.err.println(line);
    toFile(line);
  }

  private static void toFile(String line) {
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
