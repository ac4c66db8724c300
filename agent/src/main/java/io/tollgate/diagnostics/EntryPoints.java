package io.tollgate.diagnostics;

import io.tollgate.config.Durations;
import io.tollgate.logging.AgentLog;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which supported entry points (servlet containers, Spring MVC, Jersey) the agent has found:
 * each framework is logged once, when its first class is instrumented, and a warning is logged
 * when none has been found some time after start, the usual sign of an unsupported stack (or of an
 * agent attached to the wrong JVM).
 */
public final class EntryPoints {

  /** The default wait before warning; the {@code entry-point-warning-after} setting changes it. */
  static final long DEFAULT_WARNING_AFTER_NANOS = 60_000_000_000L;

  private static final Set<String> DETECTED = ConcurrentHashMap.newKeySet();

  private EntryPoints() {}

  /** Called for each class the agent instrumented; logs its framework the first time. */
  public static void detected(String framework, String className) {
    if (DETECTED.add(framework)) {
      AgentLog.info("detected " + framework + " (" + className + ")");
    }
  }

  /** Whether some supported entry point was instrumented. */
  public static boolean anySeen() {
    return !DETECTED.isEmpty();
  }

  /**
   * Starts a daemon thread that warns once when no entry point has been instrumented after
   * {@code after} (a duration such as {@code 60s}; default one minute, {@code 0} = never).
   */
  public static void warnIfNoneSeen(String after) {
    long nanos = DEFAULT_WARNING_AFTER_NANOS;
    if (after != null && !after.trim().isEmpty()) {
      try {
        nanos = after.trim().equals("0") ? 0 : Durations.parseNanos(after.trim());
      } catch (RuntimeException e) {
        AgentLog.warn("entry-point-warning-after must be a duration such as 60s, got '" + after
            + "'; using 60s");
      }
    }
    if (nanos <= 0) {
      return;
    }
    final long waitMillis = Math.max(1, nanos / 1_000_000);
    // A class, not a lambda: started at start, where linking one spins a class
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        try {
          Thread.sleep(waitMillis);
        } catch (InterruptedException e) {
          return;
        }
        if (!anySeen()) {
          AgentLog.warn("no supported entry point (Servlet, Spring MVC, Jersey) has been seen "
              + Durations.format(waitMillis * 1_000_000) + " after start: no request is rate"
              + " limited. Is the application a servlet, Spring MVC or JAX-RS (Jersey) app, and"
              + " is the agent attached to the right JVM?");
        }
      }
    }, "tollgate-entry-point-watch");
    thread.setDaemon(true);
    thread.start();
  }
}
