package io.tollgate.instrumentation.container;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.rules.RuleSet;
import io.tollgate.instrumentation.servlet.NoRuleApplies;
import io.tollgate.instrumentation.servlet.ServletExchange;

/**
 * A servlet container's own request entry (Tomcat's host valve, Jetty's server), reached by every
 * request the container receives, before it looks for a filter or servlet: decides the request as
 * its outermost entry point, so that requests the container answers itself (a path no servlet is
 * mapped to, a static resource served by a valve) pass the rules too.
 *
 * <p>Counted once: the scope is the thread's current request, so the filters and the servlet that
 * follow see it decided and count nothing (they only decide rules that wait for the user); and
 * the request is marked decided as the first servlet entry point marks it (on Tomcat a note, which
 * no attribute listener hears of), because Tomcat runs its host valve again for an asynchronous
 * request's dispatch while the request still says it is the original dispatch. What the decision holds is given
 * back, and {@code count-when} settled, when the container's method returns: by then the
 * container's own answer (its 404 or 405) is the response's status.
 *
 * <p>It reads only what the engine's decision reads; nothing here touches the request's
 * parameters or body.
 */
public final class ContainerRequests {

  private final TollgateGate engine;

  public ContainerRequests(TollgateGate engine) {
    this.engine = engine;
  }

  /**
   * The container starts serving {@code request} (its own object, which implements either
   * servlet API's {@code HttpServletRequest}) with {@code response}.
   *
   * @return null to go on undecided, {@link Refusal#WRITTEN} when refused (the 429 written), or
   *     the request's scope for {@link #ended}
   */
  public Object started(Object request, Object response) {
    if (!engine.active()) {
      return null;
    }
    // A request no rule can apply to goes at once, whether or not it is made in-process while
    // serving another (which is part of that one): nothing is made, marked or looked up for it.
    // Looked up once: what no rule applies to goes; what some may, the decision takes as found.
    String uri = ServletExchange.requestUriOf(request);
    RuleSet ruleSet = engine.rulesInForce();
    String path = TollgateGate.pathOf(uri);
    int[] onPath = path == null ? null : ruleSet.rulesOnPath(path);
    if (NoRuleApplies.on(engine, onPath, request, response)) {
      return null;
    }
    RequestScope context = engine.threadContext(); // looked up once for both uses
    if (TollgateGate.isServing(context)) {
      // A request made in-process while serving another is part of that one, as at the servlet.
      return null;
    }
    ServletExchange exchange = ServletExchange.firstTimeDecided(request, response, uri);
    if (exchange == null) {
      return null; // an async re-dispatch of a request decided already, or not an HTTP request
    }
    RequestScope scope = engine.outermostEntry(exchange, context, ruleSet, path, onPath);
    return scope == RequestScope.REFUSED ? Refusal.WRITTEN : scope;
  }

  /** The container's method returned, or threw {@code thrown}. */
  public void ended(Object scope, Throwable thrown) {
    if (scope instanceof RequestScope) {
      engine.requestEnded((RequestScope) scope, thrown);
    }
  }
}
