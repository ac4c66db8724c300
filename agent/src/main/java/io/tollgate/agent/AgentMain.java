package io.tollgate.agent;

import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.diagnostics.AgentLog;
import io.tollgate.diagnostics.EntryPoints;
import io.tollgate.diagnostics.Version;
import io.tollgate.diagnostics.metrics.PrometheusExporter;
import io.tollgate.engine.RulesFileWatcher;
import io.tollgate.engine.RulesHolder;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.AgentInstaller;
import io.tollgate.limiters.Clock;
import io.tollgate.rules.RuleSetFactory;
import java.io.File;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the isolated agent: settings, log, rules, the engine behind the bridge, then the
 * instrumentation. Called once per JVM by the bootstrap tier; a later {@code attach} calls
 * {@link #reattach} instead.
 *
 * <p>With the JVM ({@code -javaagent}), {@code premain} only registers a
 * {@link StartupTransformer} and starts the {@code tollgate-start} thread, which does the rest
 * (about a second of CPU, mostly loading Byte Buddy) while the application starts: the
 * application waits only if it loads a class that may serve requests before the agent is ready.
 * Attached to a running JVM, everything happens before {@code agentmain} returns, as the
 * {@code attach} command reports the outcome.
 */
public final class AgentMain {

  private static final long RELOAD_INTERVAL_MILLIS = 1_000;

  private static RulesHolder rules;
  /** How long {@code premain} itself took (the agent's share of the application's start). */
  private static volatile long premainMillis;

  private AgentMain() {}

  public static synchronized void start(
      String agentArgs, Instrumentation inst, boolean atStartup, File jar) {
    long startNanos = System.nanoTime();
    AgentArguments arguments = AgentArguments.parse(agentArgs);
    AgentLog.installAsSink();
    AgentLog.setDebug(arguments.isTrue("debug"));
    String logFile = arguments.get("log-file");
    if (logFile != null) {
      AgentLog.logToFile(logFile);
    }
    AgentLog.info("Tollgate " + Version.current() + " starting on Java "
        + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        + (atStartup ? "" : ", attached to a running JVM") + "; agent jar " + jar);
    if (atStartup) {
      startBesideTheApplication(arguments, inst, startNanos);
    } else {
      startEngine(arguments);
      AgentInstaller.installOnRunningJvm(inst, AgentMain.class.getClassLoader());
      startBackgroundServices(arguments);
      AgentLog.info("ready; watching " + watched(arguments) + " for changes");
    }
  }

  private static void startBesideTheApplication(
      AgentArguments arguments, Instrumentation inst, long startNanos) {
    StartupTransformer gatekeeper = new StartupTransformer(AgentMain.class.getClassLoader());
    inst.addTransformer(gatekeeper, true);
    // An anonymous class, not a lambda: one invokedynamic bootstrap fewer in premain.
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        finishStarting(arguments, inst, gatekeeper, startNanos);
      }
    }, "tollgate-start");
    thread.setDaemon(true);
    gatekeeper.startedOn(thread);
    premainMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    thread.start();
  }

  /** On the start-up thread: everything {@code premain} left, then Byte Buddy takes over. */
  private static void finishStarting(AgentArguments arguments, Instrumentation inst,
      StartupTransformer gatekeeper, long startNanos) {
    ClassFileTransformer byteBuddy = null;
    try {
      startEngine(arguments);
      byteBuddy = AgentInstaller.transformerForJvmStart(AgentMain.class.getClassLoader());
    } catch (Throwable t) {
      AgentLog.error("the agent could not start; the application runs without rate limiting", t);
    } finally {
      gatekeeper.ready(byteBuddy);
    }
    if (byteBuddy == null) {
      return;
    }
    retransformLoadedUnchanged(inst, gatekeeper);
    startBackgroundServices(arguments);
    // "ready; watching ... for changes" as before: people and scripts look for it
    AgentLog.info("ready; watching " + watched(arguments) + " for changes ("
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
        + " ms after premain began: premain " + premainMillis + " ms, then "
        + ownCpuMillis() + " ms CPU on the start-up thread; " + gatekeeper.waitSummary() + ")");
  }

  /** The rules, and the engine that applies them behind the bridge. */
  private static synchronized void startEngine(AgentArguments arguments) {
    rules = new RulesHolder(new RuleSetFactory(Clock.system()));
    String config = configPath(arguments);
    if (config == null) {
      AgentLog.warn("no rules file given (-javaagent:tollgate-agent.jar=config=PATH,"
          + " -Dtollgate.config=PATH or TOLLGATE_CONFIG=PATH): every request passes");
    } else {
      AgentLog.info("config " + config);
      rules.useFile(config);
    }
    TollgateBridge.install(new TollgateGate(rules));
  }

  private static void startBackgroundServices(AgentArguments arguments) {
    RulesFileWatcher.start(rules, RELOAD_INTERVAL_MILLIS);
    PrometheusExporter.startIfConfigured(
        arguments.get("metrics-port"), arguments.get("metrics-host"));
    EntryPoints.warnIfNoneSeen(arguments.get("entry-point-warning-after"));
  }

  /** Classes that gave up waiting for a start that hung: instrumented now, late but not never. */
  private static void retransformLoadedUnchanged(
      Instrumentation inst, StartupTransformer gatekeeper) {
    List<String> names = gatekeeper.loadedUnchanged();
    if (names.isEmpty()) {
      return;
    }
    List<Class<?>> classes = new ArrayList<>();
    for (Class<?> loaded : inst.getAllLoadedClasses()) {
      if (names.contains(loaded.getName().replace('.', '/')) && inst.isModifiableClass(loaded)) {
        classes.add(loaded);
      }
    }
    AgentLog.warn(names.size() + " class(es) that may serve requests loaded before the agent was"
        + " ready (it took over " + StartupTransformer.MAX_WAIT_MILLIS / 1000 + " s); requests"
        + " through them passed unlimited until now: " + names);
    try {
      inst.retransformClasses(classes.toArray(new Class<?>[0]));
    } catch (Throwable t) {
      AgentLog.error("could not instrument the classes loaded before the agent was ready", t);
    }
  }

  private static long ownCpuMillis() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return threads.isCurrentThreadCpuTimeSupported()
        ? TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime())
        : -1;
  }

  private static String watched(AgentArguments arguments) {
    String config = configPath(arguments);
    return config == null ? "no rules file" : config;
  }

  /** A second attach: switch to its rules file (and debug setting) without instrumenting again. */
  public static synchronized void reattach(String agentArgs) {
    AgentArguments arguments = AgentArguments.parse(agentArgs);
    AgentLog.setDebug(arguments.isTrue("debug"));
    String config = configPath(arguments);
    AgentLog.info("attached again; already instrumented, updating the configuration");
    if (config != null && rules != null) {
      AgentLog.info("config " + config);
      rules.useFile(config);
    }
  }

  private static String configPath(AgentArguments arguments) {
    String config = arguments.get("config");
    return config == null || config.isEmpty() ? null : new File(config).getAbsolutePath();
  }
}
