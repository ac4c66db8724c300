package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import io.tollgate.rules.Rule;
import java.util.List;

/**
 * A request from its outermost entry point (a servlet container's) to its end: its one context,
 * holding the exchange, the verdicts of every decision point it passed (so that later points
 * report all of them and the end gives back what they hold), the rules that wait for a later
 * point, and how long the agent has held it. Framework modules hand it back to {@link
 * TollgateGate#requestEnded}.
 *
 * <p>Reused by the thread's next request when this one ends with nothing left to do at its end
 * (the common case): then nothing but the thread refers to it, and the next request fills it
 * again instead of allocating a context, verdicts, an entry and a verdict. A request whose end
 * comes later (an asynchronous request holding a permit, a charge settled by the status) keeps
 * its context, and the thread makes a new one.
 */
public final class RequestScope {

  /**
   * The mark (a request attribute or property) a framework's handler sets on a request it
   * decided, so that no other handler of the same request decides it again.
   */
  public static final String HANDLER_DECIDED_MARK = "io.tollgate.route-decided";

  /** What {@link TollgateGate#outermostEntry} answers for a refused request. */
  public static final RequestScope REFUSED = new RequestScope(null, null);

  HttpExchange exchange;
  /** Never null (but for {@link #REFUSED}); empty until a rule decides. */
  final RuleVerdicts verdicts;
  /** Whether a request is using this context: from its outermost entry point until it returns. */
  boolean active;
  /**
   * The thread's decisions since it last timed one ({@link DecisionTiming}), -1 before its first:
   * kept across the thread's requests, as the context is.
   */
  int untimedDecisions = -1;
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

  /**
   * Filled again for the thread's next request, on {@code exchange}: emptied first, since the
   * previous request may have been refused or failed before its end released it.
   */
  void reuseFor(HttpExchange exchange) {
    release();
    this.exchange = exchange;
  }

  /**
   * The request is over and nothing refers to this context but the thread: forgets it, so that
   * the next request starts empty and the previous one's objects can be collected.
   */
  void release() {
    exchange = null;
    verdicts.reset();
    waitingForPrincipal = null;
    waitingForBody = null;
    heldNanos = 0;
    bodyReadBegun = false;
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
