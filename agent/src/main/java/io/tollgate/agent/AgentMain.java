package io.tollgate.agent;

import io.tollgate.bootstrap.EngineReadiness;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.diagnostics.EntryPoints;
import io.tollgate.diagnostics.RefusalLog;
import io.tollgate.diagnostics.Version;
import io.tollgate.diagnostics.metrics.PrometheusExporter;
import io.tollgate.engine.RulesFileWatcher;
import io.tollgate.engine.RulesHolder;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.EntryPointDispatch;
import io.tollgate.instrumentation.EntryPointWeaving;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.JdkEntryPoints;
import io.tollgate.instrumentation.EntryPointWeavingSwitch;
import io.tollgate.instrumentation.LoadedEntryPoints;
import io.tollgate.instrumentation.WeavingWarmUp;
import io.tollgate.instrumentation.classloader.LoadedClassLoaders;
import io.tollgate.limiters.Clock;
import io.tollgate.logging.AgentLog;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.stores.redis.RedisBackend;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the isolated agent: settings, log, rules, the engine behind the bridge, then the
 * instrumentation. Called once per JVM by the bootstrap tier; a later {@code attach} calls
 * {@link #reattach} instead.
 *
 * <p>With the JVM ({@code -javaagent}), {@code premain} only registers the
 * {@link WeavingTransformer}, which needs no rules, and starts the {@code tollgate-start}
 * thread, which reads the rules and installs the engine while the application starts. No class
 * waits for it; a request that reaches an entry point before the engine is installed does
 * ({@link EngineReadiness}). Attached to a running JVM, everything happens before
 * {@code agentmain} returns, as the {@code attach} command reports the outcome.
 */
public final class AgentMain {

  private static final long RELOAD_INTERVAL_MILLIS = 1_000;

  /** Volatile: {@code status} reads it from the attach thread, without the lock. */
  private static volatile RulesHolder rules;
  /** When the agent started (wall clock): its counters count since then. */
  private static volatile long startedAtMillis;
  /** How long {@code premain} itself took (the agent's share of the application's start). */
  private static volatile long premainMillis;

  /** Every framework module: their entry points are woven, and the engine's calls go to them. */
  private static final List<FrameworkModule> MODULES = FrameworkModules.all();

  private AgentMain() {}

  public static synchronized void start(
      String agentArgs, Instrumentation inst, boolean atStartup, File jar) {
    long startNanos = System.nanoTime();
    startedAtMillis = System.currentTimeMillis();
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
    logProblems(arguments);
    if (atStartup && !arguments.problems().isEmpty()) {
      FailOnError.stopIfAsked(arguments, "the agent options above are wrong");
    }
    ClassLoader agentClassLoader = AgentMain.class.getClassLoader();
    EntryPointWeaving weaving = EntryPointWeaving.of(MODULES);
    // One transformer, one look at each class file: class loaders are woven from now on, so that
    // every class loader shows the bridge before an entry point it loads is woven
    WeavingTransformer transformer = new WeavingTransformer(agentClassLoader, weaving);
    inst.addTransformer(transformer, true);
    LoadedClassLoaders.retransform(inst, agentClassLoader);
    if (atStartup) {
      EngineReadiness.expect();
      String waitReason = ApplicationLogManager.reasonToWait(arguments);
      if (waitReason != null) {
        EngineReadiness.startAtFirstRequest();
        AgentLog.info(waitReason + ": the rules are loaded when the first request arrives, so"
            + " that the agent does not set up java.util.logging before the application does ("
            + ApplicationLogManager.ARGUMENT + "=false starts at once)");
      }
      // Nothing of the application has begun loading yet (premain runs before its main): no class
      // file passed unwoven
      transformer.weaveEntryPoints();
      // The JDK's own clients on the start-up thread: no application class waits for them
      startBesideTheApplication(arguments, startNanos, inst, weaving, transformer);
    } else {
      try (AgentLog.Errors errors = AgentLog.collectErrors()) {
        boolean loaded = false;
        try {
          loaded = startEngine(arguments);
          List<EntryPointWeavingSwitch.PassedClassFile> passedUnwoven =
              transformer.weaveEntryPoints();
          weaveJdkEntryPoints(inst, weaving, transformer);
          LoadedEntryPoints.retransform(inst, weaving, agentClassLoader, passedUnwoven);
          startBackgroundServices(arguments);
          AgentLog.info("ready; watching " + watched(arguments) + " for changes");
        } catch (RuntimeException | Error e) {
          AgentLog.error("the agent could not start; the application runs without rate"
              + " limiting", e);
          loaded = false;
          throw e;
        } finally {
          attachOutcome(arguments, configPath(arguments), loaded, errors).writeIfAsked(arguments);
        }
      }
    }
  }

  /**
   * What the attach command prints: whether the rules file {@code config} (null: none named) is in
   * force, and the ERRORs this attach logged.
   */
  private static AttachReport attachOutcome(
      AgentArguments arguments, String config, boolean loaded, AgentLog.Errors errors) {
    String inForce = rules == null ? "no rules" : rules.describeInForce();
    // The JVM's own -Dtollgate.* and TOLLGATE_* mistakes too, logged before the attach's own work
    List<String> messages = new ArrayList<>();
    for (String problem : arguments.problems()) {
      messages.add(problem + " (not used)");
    }
    messages.addAll(errors.messages());
    if (config == null) {
      return new AttachReport(true, "no rules file named; in force: " + inForce, messages);
    }
    if (loaded) {
      return new AttachReport(true, "loaded " + inForce + " from " + config, messages);
    }
    return new AttachReport(false, "the rules file " + config + " is not in force; in force: "
        + inForce + (errors.messages().isEmpty() ? " (see the JVM's log for why)" : ""),
        messages);
  }

  private static void startBesideTheApplication(AgentArguments arguments, long startNanos,
      Instrumentation inst, EntryPointWeaving weaving, WeavingTransformer transformer) {
    // An anonymous class, not a lambda: one invokedynamic bootstrap fewer in premain.
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        warmUpTheWeaving();
        StartupPhases.ended("the weaving's warm-up");
        weaveJdkEntryPoints(inst, weaving, transformer);
        StartupPhases.ended("the JDK's clients woven");
        finishStarting(arguments, startNanos);
      }
    }, "tollgate-start");
    thread.setDaemon(true);
    premainMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    thread.start();
  }

  /**
   * First on the start-up thread: the classes the first weave of an entry point loads (ASM's,
   * the weaving's), loaded here rather than by the application's thread that loads its first
   * entry point, which is on its way to the first request ({@link WeavingWarmUp}). Before the
   * rules: an application's first entry point is loaded before its first request can come. A
   * failure only leaves that loading to the application's thread.
   */
  private static void warmUpTheWeaving() {
    try {
      WeavingWarmUp.run();
    } catch (Throwable t) {
      AgentLog.debug("could not load the weaving's classes ahead of the first entry point: " + t);
    }
  }

  /**
   * The entry points in the JDK's own classes (its HTTP clients), woven once their modules read the
   * bridge's ({@link JdkEntryPoints#prepare}). At start, on the start-up thread and before the
   * rules: changing the JDK's modules loads and spins classes that {@code premain}, on the
   * application's main thread, need not wait for; no outbound call is decided before the engine is
   * installed anyway. A client class the application loads meanwhile is woven all the same
   * ({@link io.tollgate.instrumentation.JdkWeavingSwitch}). A failure leaves those clients
   * unwoven, their calls unlimited.
   */
  private static void weaveJdkEntryPoints(
      Instrumentation inst, EntryPointWeaving weaving, WeavingTransformer transformer) {
    try {
      JdkEntryPoints.prepare(inst, weaving, transformer.jdkEntryPoints());
    } catch (RuntimeException | Error e) {
      AgentLog.error("the JDK's HTTP clients could not be instrumented; their calls pass"
          + " unlimited", e);
    }
  }

  /** On the start-up thread: the rules and the engine, then the background services. */
  private static void finishStarting(AgentArguments arguments, long startNanos) {
    boolean loaded;
    try {
      EngineReadiness.awaitFirstRequest();
      loaded = startEngine(arguments);
      if (!loaded) {
        // Before the readiness below: no request waiting for the rules passes unlimited.
        FailOnError.stopIfAsked(arguments, "no rules are in force");
      }
    } catch (Throwable t) {
      AgentLog.error("the agent could not start; the application runs without rate limiting", t);
      FailOnError.stopIfAsked(arguments, "the agent could not start");
      return;
    } finally {
      EngineReadiness.ready(); // whatever happened: no request waits any more
    }
    StartupPhases.ended("the rules and the engine");
    if (loaded) {
      loadFirstDecisionClasses();
    }
    StartupPhases.ended("the first decision's classes");
    startBackgroundServices(arguments);
    StartupPhases.ended("the background services");
    // "ready; watching ... for changes" as before: people and scripts look for it
    AgentLog.info("ready; watching " + watched(arguments) + " for changes ("
        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
        + " ms after premain began: premain " + premainMillis + " ms, then "
        + StartupThreadCpu.millis() + " ms CPU on the start-up thread; "
        + EngineReadiness.waitSummary() + ")");
    if (AgentLog.isDebug()) {
      AgentLog.debug("the start-up thread's CPU by phase: " + StartupPhases.summary());
    }
  }

  /**
   * On the start-up thread, once no request waits for it: what the application's first decided
   * request would otherwise load itself, in its own time (the first 200 of a starting application
   * waited for it). Only classes: the rules' own caches are still made at their first decisions. A
   * failure here only leaves the loading to that request.
   */
  private static void loadFirstDecisionClasses() {
    try {
      LocalLimiterStore.loadCacheClasses();
      ApiPerClass.loadClasses();
    } catch (Throwable t) {
      AgentLog.debug("could not load the first decision's classes ahead of the first request: "
          + t);
    }
  }

  /**
   * The rules, and the engine that applies them behind the bridge.
   *
   * @return whether rules from a file are in force
   */
  private static synchronized boolean startEngine(AgentArguments arguments) {
    RefusalLog.shared().setLinesPerMinute(
        arguments.linesPerMinute("refusal-log", RefusalLog.DEFAULT_LINES_PER_MINUTE));
    rules = new RulesHolder(new RuleSetFactory(Clock.system()));
    String config = configPath(arguments);
    boolean loaded = false;
    if (config == null) {
      AgentLog.warn("no rules file given (-javaagent:tollgate-agent.jar=config=PATH,"
          + " -Dtollgate.config=PATH or TOLLGATE_CONFIG=PATH): every request passes");
    } else {
      AgentLog.info("config " + config);
      loaded = rules.useFile(config);
      awaitRedis();
    }
    TollgateBridge.install(
        new EntryPointDispatch(MODULES, new TollgateGate(rules)));
    return loaded;
  }

  /**
   * With {@code backend: redis}, the first connection is made (or has failed for good) before the
   * agent says {@code ready}: requests wait for that ({@link EngineReadiness}), so none is decided
   * by its rule's on-failure policy for coming early. Bounded by {@code startupWait} (10 s).
   */
  private static void awaitRedis() {
    // Local rules start no backend: RedisBackend (and the Lettuce classes it links) stays unloaded
    if (!rules.countsOnRedis() || !RedisBackend.anyStarting()) {
      return;
    }
    for (String address : RedisBackend.awaitStartingBackends()) {
      AgentLog.warn("redis at " + address + " is not connected yet; the agent starts anyway, and"
          + " its rules apply their on-failure policy until it is");
    }
  }

  private static void startBackgroundServices(AgentArguments arguments) {
    RulesFileWatcher.start(rules, RELOAD_INTERVAL_MILLIS);
    String metricsPort = arguments.get("metrics-port");
    if (metricsPort != null) {
      // Only then: the exporter's class sets up its counters' table (nine method references),
      // work for the start-up thread that a start without metrics need not do
      PrometheusExporter.startIfConfigured(metricsPort, arguments.get("metrics-host"));
    }
    EntryPoints.warnIfNoneSeen(arguments.get("entry-point-warning-after"));
  }

  private static String watched(AgentArguments arguments) {
    String config = configPath(arguments);
    return config == null ? "no rules file" : config;
  }

  /**
   * A second attach: apply the settings it names among {@link AgentArguments#APPLIED_AGAIN} (its
   * rules file, debug, the refusal log) without instrumenting again; those it leaves out stay.
   */
  public static void reattach(String agentArgs) {
    AgentArguments arguments = AgentArguments.parse(agentArgs);
    if (arguments.given(AgentArguments.STATUS_REPORT)) {
      // The status command: answered without the lock (a reload in progress does not hold it
      // up), and nothing else in the arguments is applied.
      StatusReport.write(rules, startedAtMillis, arguments.get(AgentArguments.STATUS_REPORT));
      return;
    }
    reconfigure(arguments);
  }

  private static synchronized void reconfigure(AgentArguments arguments) {
    AgentLog.info("attached again; already instrumented, updating the configuration");
    logProblems(arguments);
    if (arguments.given("debug")) {
      AgentLog.setDebug(arguments.isTrue("debug"));
    }
    if (arguments.given("refusal-log")) {
      RefusalLog.shared().setLinesPerMinute(
          arguments.linesPerMinute("refusal-log", RefusalLog.DEFAULT_LINES_PER_MINUTE));
    }
    String config = arguments.given("config") ? configPath(arguments) : null;
    try (AgentLog.Errors errors = AgentLog.collectErrors()) {
      boolean loaded = false;
      if (config != null && rules != null) {
        AgentLog.info("config " + config);
        loaded = rules.useFile(config);
      }
      attachOutcome(arguments, config, loaded, errors).writeIfAsked(arguments);
    }
    for (String setting : AgentArguments.NAMES) {
      if (arguments.given(setting) && !AgentArguments.APPLIED_AGAIN.contains(setting)) {
        AgentLog.warn(setting + " is read when the agent first starts; this attach leaves it as"
            + " it was (restart the JVM to change it)");
      }
    }
  }

  private static void logProblems(AgentArguments arguments) {
    // Each names its option; a wrong one is not used, so the option keeps its default.
    for (String problem : arguments.problems()) {
      AgentLog.error(problem + " (not used)");
    }
  }

  private static String configPath(AgentArguments arguments) {
    String config = arguments.get("config");
    return config == null || config.isEmpty() ? null : new File(config).getAbsolutePath();
  }
}
