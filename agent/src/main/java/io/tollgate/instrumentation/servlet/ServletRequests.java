package io.tollgate.instrumentation.servlet;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.rules.RuleSet;
import io.tollgate.instrumentation.EntryPointHandler;

/**
 * What {@code Servlet.service} and {@code Filter.doFilter} do when woven: the first of them that a
 * request's original dispatch reaches is its outermost entry point, decided by the engine; the
 * later ones (more filters, the servlet, forwards and includes) only decide the rules that waited
 * for the user, if any. A refusal is written to the servlet response, and the method skipped.
 */
final class ServletRequests implements EntryPointHandler {

  private final TollgateGate engine;

  ServletRequests(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object request, Object response) {
    if (!engine.active()) {
      return null;
    }
    RequestScope context = engine.threadContext(); // looked up once for both uses
    if (TollgateGate.isServing(context)) {
      // This thread is inside the first entry point of a request, so this is part of that
      // request: a later filter or the servlet (often with the request wrapped, by Spring
      // Security or the application), a forward or include, or a request made in-process while
      // serving it. Known without asking the container anything.
      if (!context.waitsForUser()) {
        return null;
      }
      ServletExchange later = ServletExchange.atLaterEntry(request, response);
      return later != null && engine.laterEntry(context, later) ? Refusal.WRITTEN : null;
    }
    // Looked at after the thread's context, so that the filters and the servlet inside a request
    // a rule applies to (the common case of those that reach here) know it at once, as before;
    // and a later entry point of a request waiting for its user, on a forward's path now, finds it.
    // A request no rule can apply to goes at once: nothing made, marked, or done at its end.
    // Looked up once: what no rule applies to goes; what some may, the decision takes as found.
    String uri = ServletExchange.requestUriOf(request);
    RuleSet ruleSet = engine.rulesInForce();
    String path = TollgateGate.pathOf(uri);
    int[] onPath = path == null ? null : ruleSet.rulesOnPath(path);
    if (NoRuleApplies.on(engine, onPath, request, response)) {
      return null;
    }
    ServletExchange exchange = ServletExchange.firstTimeDecided(request, response, uri);
    if (exchange == null) {
      return null;
    }
    RequestScope scope = engine.outermostEntry(exchange, context, ruleSet, path, onPath);
    return scope == RequestScope.REFUSED ? Refusal.WRITTEN : scope;
  }

  @Override
  public void exit(Object scope, Throwable thrown) {
    if (scope instanceof RequestScope) {
      engine.requestEnded((RequestScope) scope, thrown);
    }
  }
}
