package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import io.tollgate.rules.Rule;
import java.util.List;

/**
 * A request from its outermost entry point (a servlet container's) to its end: the verdicts of
 * every decision point it passed, so that later points report all of them and the end gives back
 * what they hold. Framework modules hand it back to {@link TollgateGate#requestEnded}.
 */
public final class RequestScope {

  /**
   * The mark (a request attribute or property) a framework's handler sets on a request it
   * decided, so that no other handler of the same request decides it again.
   */
  public static final String HANDLER_DECIDED_MARK = "io.tollgate.route-decided";

  /** What {@link TollgateGate#outermostEntry} answers for a refused request. */
  public static final RequestScope REFUSED = new RequestScope(null, null);

  final HttpExchange exchange;
  RuleVerdicts verdicts;
  /**
   * Rules keyed by the user, which the request did not have at its first entry point: decided at
   * the first later entry point that has one, at the latest at the framework's handler. Null when
   * none.
   */
  List<Rule> waitingForPrincipal;
  /**
   * Rules whose key is a form body's field that the application had not read when they were
   * reached: decided when it first reads its parameters or body ({@link TollgateGate#bodyRead}).
   * Null when none.
   */
  List<Rule> waitingForBody;
  /** How long the agent has held this request so far: start-up wait, decisions, pacing. */
  long heldNanos;

  RequestScope(HttpExchange exchange, RuleVerdicts verdicts) {
    this.exchange = exchange;
    this.verdicts = verdicts;
  }

  /** The exchange of the outermost entry point (its client address, its response). */
  public HttpExchange exchange() {
    return exchange;
  }

  /** Set while the body's first read is being decided: the reads the agent makes then are its own. */
  boolean bodyReadBegun;

  /** Whether rules keyed by a form body's field wait for the application to read its body. */
  public boolean waitsForBody() {
    return waitingForBody != null && !bodyReadBegun;
  }

  /**
   * At a read of the body: true, once, when rules wait for it, so that the reads made to decide
   * them (which the container's woven readers see too) do not begin it again; {@link
   * TollgateGate#bodyRead} ends it, and {@link #endBodyRead} at the latest.
   */
  public boolean beginBodyRead() {
    if (!waitsForBody()) {
      return false;
    }
    bodyReadBegun = true;
    return true;
  }

  /**
   * Ends a read of the body begun by {@link #beginBodyRead}: when deciding failed before {@link
   * TollgateGate#bodyRead} could, the rules that waited are not decided (the request passes them,
   * as it passes any rule whose decision fails) rather than tried again at every later read.
   */
  public void endBodyRead() {
    if (bodyReadBegun) {
      bodyReadBegun = false;
      waitingForBody = null;
    }
  }

  /** Whether rules keyed by the user still wait for a later entry point that knows the user. */
  public boolean waitsForUser() {
    return waitingForPrincipal != null;
  }
}
