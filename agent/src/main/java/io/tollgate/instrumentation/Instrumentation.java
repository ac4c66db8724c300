package io.tollgate.instrumentation;

import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * One intercepted framework entry point: which types, which methods, which advice. One small class
 * per intercepted type, as in the OpenTelemetry agent.
 */
public interface Instrumentation {

  /** For the log: "servlet (javax.servlet)". */
  String name();

  /** A class whose presence in a class loader means this instrumentation may apply there. */
  String markerClass();

  /** Adds this instrumentation's type matcher and advice to the builder. */
  AgentBuilder apply(AgentBuilder builder, ClassLoader agentClassLoader);
}
