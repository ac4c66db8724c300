package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;

/**
 * What Jersey's {@code ResourceMethodInvoker.apply} does when woven: the route template is known,
 * so the rules on routes are decided here (every rule, when no servlet container is in front); a
 * refusal becomes the {@code ContainerResponse} the invoker returns, and the quota headers of an
 * allowed request are set on the one the resource returns.
 */
final class JerseyResources implements EntryPointHandler {

  private final TollgateGate engine;

  JerseyResources(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object processingContext, Object unused) {
    if (!engine.decidesAtHandler(true)) {
      return null;
    }
    JerseyApi jersey = JerseyApi.of(processingContext);
    if (jersey == null) {
      return null;
    }
    RequestScope outer = engine.currentRequest();
    JerseyExchange exchange =
        new JerseyExchange(
            jersey,
            jersey.calls.request(processingContext),
            outer == null ? null : outer.exchange(),
            outer == null ? engine.serverRemoteAddress() : outer.exchange().remoteAddress());
    if (exchange.property(RequestScope.HANDLER_DECIDED_MARK) != null) {
      return null;
    }
    exchange.setProperty(RequestScope.HANDLER_DECIDED_MARK, Boolean.TRUE);
    if (engine.handlerEntry(exchange, true)) {
      return Refusal.returning(exchange.refusal());
    }
    return exchange.hasHeadersForResponse() ? exchange : null;
  }

  @Override
  public Object returned(Object scope, Object containerResponse) {
    if (scope instanceof JerseyExchange && containerResponse != null) {
      ((JerseyExchange) scope).setHeadersOn(containerResponse);
    }
    return containerResponse;
  }
}
