package io.tollgate.diagnostics;

import io.tollgate.logging.AgentLog;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Notices rules that need the request's route template ({@code key: route}, {@code match.route})
 * in an application where no framework that knows routes (Spring MVC, Jersey) serves requests:
 * such rules count nothing there. Says so once, after {@value #REQUESTS} servlet requests have
 * ended without any framework handler having run in this JVM; never changes a decision.
 *
 * <p>Rules that arrive later (a reload, an attach) are looked at too: the first route rule loaded
 * after those requests is reported at the next request. The rules are walked only when the rules
 * in force are another set than at the last look, so a plain-servlet application without route
 * rules pays a reference comparison per request, not a walk.
 */
public final class RouteRulesAdvisor {

  static final long REQUESTS = 100;

  private final AtomicLong requestsWithoutHandler = new AtomicLong();
  private final AtomicBoolean warned = new AtomicBoolean();
  /** Set once {@link #REQUESTS} requests have ended with no handler: the counting stops. */
  private volatile boolean enoughRequests;
  /** The rules in force at the last look for route rules, or null before it. */
  private volatile Object rulesLookedAt;
  private volatile boolean done;

  /**
   * A servlet request ended.
   *
   * @param handlerSeen whether a framework's handler has run in this JVM
   * @param rulesInForce the rules in force, compared by identity: another object is another set
   * @param routeRules the names of the rules in force that need a route
   */
  public void requestEnded(
      boolean handlerSeen, Object rulesInForce, Supplier<List<String>> routeRules) {
    if (done) {
      return;
    }
    if (handlerSeen) {
      done = true;
      return;
    }
    if (!enoughRequests) {
      if (requestsWithoutHandler.incrementAndGet() < REQUESTS) {
        return;
      }
      enoughRequests = true;
    }
    if (rulesInForce == rulesLookedAt) {
      return;
    }
    rulesLookedAt = rulesInForce;
    List<String> names = routeRules.get();
    // Two threads may look at once; one says it
    if (!names.isEmpty() && warned.compareAndSet(false, true)) {
      done = true;
      AgentLog.warn("rule" + (names.size() == 1 ? " '" : "s '") + String.join("', '", names)
          + (names.size() == 1 ? "' needs" : "' need") + " the request's route template"
          + " (key: route or match.route), which only Spring MVC and Jersey know, and none of"
          + " them has served a request here (" + REQUESTS + " or more so far): such rules"
          + " count nothing in this application. Match by path instead.");
    }
  }
}
