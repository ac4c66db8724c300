package io.tollgate.agent;

import io.tollgate.logging.AgentLog;



/**
 * {@code fail-on-error=true}: for operators who would rather not run an application than run it
 * without its limits. When the agent starts with the JVM and its options are wrong, or no rules
 * file can be put in force (none given, unreadable, invalid), it stops the JVM with exit status 1
 * before any request is served unlimited, as a misconfigured server fails its start: an
 * orchestrator keeps the previous version serving and reports the crash. Without it, the agent
 * never stops the application: it logs the error and lets every request through.
 *
 * <p>Only at start: a later reload that fails keeps the last good rules (nothing runs unlimited),
 * and a running JVM is never stopped; {@code attach} with {@code fail-on-error=true} instead
 * refuses to attach when its options or rules file are wrong.
 */
final class FailOnError {

  static final String OPTION = "fail-on-error";

  private FailOnError() {}

  /** Stops the JVM when {@code fail-on-error=true}; otherwise returns. */
  static void stopIfAsked(AgentArguments arguments, String reason) {
    if (!arguments.isTrue(OPTION)) {
      return;
    }
    AgentLog.error(OPTION + "=true: " + reason + "; stopping the JVM (exit status 1) rather than"
        + " let it serve without rate limits");
    System.exit(1);
  }
}
