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
import java.lang.instrument.Instrumentation;

/**
 * Starts the isolated agent: settings, log, rules, the engine behind the bridge, then the
 * instrumentation. Called once per JVM by the bootstrap tier; a later {@code attach} calls
 * {@link #reattach} instead.
 */
public final class AgentMain {

  private static final long RELOAD_INTERVAL_MILLIS = 1_000;

  private static RulesHolder rules;

  private AgentMain() {}

  public static synchronized void start(
      String agentArgs, Instrumentation inst, boolean atStartup, File jar) {
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
    AgentInstaller.install(inst, AgentMain.class.getClassLoader(), atStartup);
    RulesFileWatcher.start(rules, RELOAD_INTERVAL_MILLIS);
    PrometheusExporter.startIfConfigured(
        arguments.get("metrics-port"), arguments.get("metrics-host"));
    EntryPoints.warnIfNoneSeen(arguments.get("entry-point-warning-after"));
    AgentLog.info("ready; watching " + (config == null ? "no rules file" : config)
        + " for changes");
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
