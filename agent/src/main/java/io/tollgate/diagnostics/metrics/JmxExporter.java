package io.tollgate.diagnostics.metrics;

import io.tollgate.logging.AgentLog;
import java.lang.management.ManagementFactory;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers each rule's MBean as {@code io.tollgate:type=Rule,name=RULE} on the platform MBean
 * server, from a daemon thread, when the rule first decides (the first of them {@value
 * #AFTER_FIRST_DECISION_MILLIS} ms later, see {@link #run}).
 *
 * <p>Never in {@code premain}: the first call to {@link ManagementFactory#getPlatformMBeanServer}
 * fixes the MBean server, and application servers (JBoss/WildFly, for one) that install their own
 * builder through {@code javax.management.builder.initial} fail to start when an agent got there
 * first. By the first decision the application is serving requests, so its setup is done.
 */
public final class JmxExporter {

  public static final String DOMAIN = "io.tollgate";

  /** How long after the first rule's first decision its MBean is registered (and the server made). */
  static final long AFTER_FIRST_DECISION_MILLIS = 2_000;

  private static final BlockingQueue<Pending> PENDING = new LinkedBlockingQueue<>();
  private static volatile boolean started;
  private static volatile boolean disabled = Boolean.getBoolean("tollgate.jmx.disabled");

  private JmxExporter() {}

  /** The MBean name of a rule's counters. */
  public static String objectName(String rule) {
    return DOMAIN + ":type=Rule,name=" + (needsQuoting(rule) ? ObjectName.quote(rule) : rule);
  }

  static void registerLater(RuleMetrics metrics) {
    registerLater(objectName(metrics.getRule()), metrics);
  }

  /** An outbound rule's counters, as {@code io.tollgate:type=OutboundRule,name=RULE}. */
  static void registerLater(OutboundRuleMetrics metrics) {
    String rule = metrics.getRule();
    registerLater(
        DOMAIN + ":type=OutboundRule,name=" + (needsQuoting(rule) ? ObjectName.quote(rule) : rule),
        metrics);
  }

  /** An MBean to register, and its name. */
  private static final class Pending {
    final String name;
    final Object bean;

    Pending(String name, Object bean) {
      this.name = name;
      this.bean = bean;
    }
  }

  private static void registerLater(String name, Object bean) {
    if (disabled) {
      return;
    }
    PENDING.add(new Pending(name, bean));
    if (!started) {
      startThread();
    }
  }

  private static synchronized void startThread() {
    if (started) {
      return;
    }
    started = true;
    // A class, not a method reference: started at the first decision, on the first request's
    // thread, where linking one spins a class
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        JmxExporter.run();
      }
    }, "tollgate-jmx");
    thread.setDaemon(true);
    thread.start();
  }

  private static void run() {
    try {
      // The first decision comes with the application's first request, which a starting
      // application serves cold (Spring's DispatcherServlet sets itself up then): the platform
      // MBean server (some 200 JDK classes, each platform MXBean registered) is made once that
      // request has had its time, not beside it on a machine with few cores.
      Thread.sleep(AFTER_FIRST_DECISION_MILLIS);
    } catch (InterruptedException e) {
      return;
    }
    MBeanServer server;
    try {
      server = ManagementFactory.getPlatformMBeanServer();
    } catch (Throwable t) {
      disabled = true;
      PENDING.clear();
      AgentLog.warn("no JMX MBean server; rule metrics are not exported over JMX: " + t);
      return;
    }
    while (true) {
      Pending pending;
      try {
        pending = PENDING.take();
      } catch (InterruptedException e) {
        return;
      }
      String name = pending.name;
      try {
        ObjectName objectName = new ObjectName(name);
        if (!server.isRegistered(objectName)) {
          server.registerMBean(pending.bean, objectName);
        }
      } catch (Throwable t) {
        AgentLog.warn("cannot register the MBean " + name + ": " + t);
      }
    }
  }

  private static boolean needsQuoting(String rule) {
    for (int i = 0; i < rule.length(); i++) {
      char c = rule.charAt(i);
      if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\n') {
        return true;
      }
    }
    return rule.isEmpty();
  }
}
