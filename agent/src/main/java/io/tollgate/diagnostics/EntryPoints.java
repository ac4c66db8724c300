package io.tollgate.diagnostics;

import io.tollgate.config.Durations;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;

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
  public static void instrumented(TypeDescription type) {
    String framework;
    try {
      framework = frameworkOf(type);
    } catch (RuntimeException | LinkageError e) {
      framework = "an entry point";
    }
    if (DETECTED.add(framework)) {
      AgentLog.info("detected " + framework + " (" + type.getName() + ")");
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
    Thread thread = new Thread(() -> {
      try {
        Thread.sleep(waitMillis);
      } catch (InterruptedException e) {
        return;
      }
      if (!anySeen()) {
        AgentLog.warn("no supported entry point (Servlet, Spring MVC, Jersey) has been seen "
            + Durations.format(waitMillis * 1_000_000) + " after start: no request is rate"
            + " limited. Is the application a servlet, Spring MVC or JAX-RS (Jersey) app, and is"
            + " the agent attached to the right JVM?");
      }
    }, "tollgate-entry-point-watch");
    thread.setDaemon(true);
    thread.start();
  }

  static String frameworkOf(TypeDescription type) {
    String name = type.getName();
    if (hasSuperType(type, "org.springframework.web.servlet.HandlerAdapter", 0)) {
      return "Spring MVC";
    }
    if (name.startsWith("org.glassfish.jersey.")) {
      return name.contains("grizzly") ? "Jersey on Grizzly" : "Jersey (JAX-RS)";
    }
    if (hasSuperType(type, "jakarta.servlet.", 0)) {
      return "a Servlet container (jakarta.servlet)";
    }
    if (hasSuperType(type, "javax.servlet.", 0)) {
      return "a Servlet container (javax.servlet)";
    }
    return "an entry point";
  }

  /** Whether {@code type} or a supertype has a name starting with {@code prefix}. */
  private static boolean hasSuperType(TypeDefinition type, String prefix, int depth) {
    if (type == null || depth > 20) {
      return false;
    }
    if (type.asErasure().getName().startsWith(prefix)) {
      return true;
    }
    for (TypeDescription.Generic iface : type.getInterfaces()) {
      if (hasSuperType(iface, prefix, depth + 1)) {
        return true;
      }
    }
    return hasSuperType(type.getSuperClass(), prefix, depth + 1);
  }
}
