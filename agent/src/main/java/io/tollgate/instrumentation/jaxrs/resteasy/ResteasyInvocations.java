package io.tollgate.instrumentation.jaxrs.resteasy;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.http.RefusalMessage;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.jaxrs.ServletBackedExchange;
import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.rules.RouteTemplates;
import java.net.URI;

/**
 * What RESTEasy's {@code ResourceMethodInvoker.invokeOnTarget} does when woven: the resource
 * method is matched, so the rules on routes (and those that waited for the user) are decided here,
 * once per request, on the servlet request RESTEasy serves; a refusal becomes the response the
 * invoker returns instead of running the method.
 *
 * <p>Only behind a servlet container, as RESTEasy runs in application servers: its servlet entry
 * point has decided the rules on paths. (RESTEasy on its own Netty or Vert.x server is not seen.)
 */
final class ResteasyInvocations implements EntryPointHandler {

  private final TollgateGate engine;

  ResteasyInvocations(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object invoker, Object request) throws ReflectiveOperationException {
    if (!engine.decidesAtHandler(false)) {
      return null;
    }
    ResteasyApi resteasy = ResteasyApi.of(invoker);
    if (resteasy == null) {
      return null;
    }
    Object servletRequest = resteasy.servletRequest(request);
    if (servletRequest == null) {
      return null;
    }
    ServletExchange servlet =
        ServletExchange.firstTimeMarked(
            servletRequest, resteasy.servletResponse(request), RequestScope.HANDLER_DECIDED_MARK);
    if (servlet == null) {
      return null;
    }
    ResteasyExchange exchange = new ResteasyExchange(servlet, resteasy, invoker, request);
    return engine.handlerEntry(exchange, false) ? Refusal.returning(exchange.refusal()) : null;
  }

  /** The request RESTEasy serves, with its matched route and its kind of refusal. */
  private static final class ResteasyExchange extends ServletBackedExchange {
    private final ResteasyApi resteasy;
    private final Object invoker;
    private final Object request;

    ResteasyExchange(ServletExchange servlet, ResteasyApi resteasy, Object invoker, Object request) {
      super(servlet);
      this.resteasy = resteasy;
      this.invoker = invoker;
      this.request = request;
    }

    /** The base path (context path, servlet mapping) and the method's full path template. */
    @Override
    protected String matchedRoute() throws ReflectiveOperationException {
      String template = resteasy.fullPath(invoker);
      if (template == null) {
        return null;
      }
      URI base = resteasy.baseUri(request);
      String basePath = base == null || base.getRawPath() == null ? "" : base.getRawPath();
      return RouteTemplates.normalize(basePath + "/" + template);
    }

    @Override
    protected Object refusalResponse(RefusalMessage refusal)
        throws ReflectiveOperationException {
      return resteasy.refusals().response(refusal);
    }
  }
}
