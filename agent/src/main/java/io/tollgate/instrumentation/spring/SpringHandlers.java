package io.tollgate.instrumentation.spring;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.servlet.ServletExchange;

/**
 * What Spring MVC's {@code HandlerAdapter.handle} does when woven: the handler is chosen and its
 * route template is in the request, so the rules on routes (and those that waited for the user)
 * are decided here, once per request. A refusal is written to the servlet response, and the
 * handler skipped.
 */
final class SpringHandlers implements EntryPointHandler {

  /** The method as Spring MVC runs the request (a wrapper, as HiddenHttpMethodFilter's, says). */
  private static final TollgateGate.MethodAsRun METHOD_AS_RUN = new TollgateGate.MethodAsRun() {
    // A class, not a lambda: made at start, where linking one spins a class
    @Override
    public String of(Object request) {
      ServletExchange asSeen = ServletExchange.atLaterEntry(request, null);
      return asSeen == null ? null : asSeen.method();
    }
  };

  private final TollgateGate engine;

  SpringHandlers(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object request, Object response) {
    if (!engine.decidesAtHandler(false, METHOD_AS_RUN, request)) {
      return null;
    }
    ServletExchange exchange =
        ServletExchange.firstTimeMarked(request, response, RequestScope.HANDLER_DECIDED_MARK);
    if (exchange == null) {
      return null;
    }
    exchange.setRoute(SpringRoutes.routeOf(exchange));
    return engine.handlerEntry(exchange, false) ? Refusal.WRITTEN : null;
  }
}
