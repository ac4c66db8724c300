package io.tollgate.diagnostics;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Notices rules that need the request's route template ({@code key: route}, {@code match.route})
 * in an application where no framework that knows routes (Spring MVC, Jersey) serves requests:
 * such rules count nothing there. Says so once, after {@value #REQUESTS} servlet requests have
 * ended without any framework handler having run in this JVM; never changes a decision.
 */
public final class RouteRulesAdvisor {

  static final long REQUESTS = 100;

  private final AtomicLong requestsWithoutHandler = new AtomicLong();
  private volatile boolean done;

  /**
   * A servlet request ended.
   *
   * @param handlerSeen whether a framework's handler has run in this JVM
   * @param routeRules the names of the rules in force that need a route
   */
  public void requestEnded(boolean handlerSeen, Supplier<List<String>> routeRules) {
    if (done) {
      return;
    }
    if (handlerSeen) {
      done = true;
      return;
    }
    if (requestsWithoutHandler.incrementAndGet() == REQUESTS) {
      done = true;
      List<String> names = routeRules.get();
      if (!names.isEmpty()) {
        AgentLog.warn("rule" + (names.size() == 1 ? " '" : "s '") + String.join("', '", names)
            + (names.size() == 1 ? "' needs" : "' need") + " the request's route template"
            + " (key: route or match.route), which only Spring MVC and Jersey know, and none of"
            + " them served the first " + REQUESTS + " requests here: such rules count nothing in"
            + " this application. Match by path instead.");
      }
    }
  }
}
