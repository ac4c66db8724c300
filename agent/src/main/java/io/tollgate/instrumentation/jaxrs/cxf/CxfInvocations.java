package io.tollgate.instrumentation.jaxrs.cxf;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.engine.RequestScope;
import io.tollgate.http.RefusalMessage;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.jaxrs.ServletBackedExchange;
import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.rules.RouteTemplates;
import java.net.URI;
import java.util.Map;

/**
 * What CXF's {@code JAXRSInvoker.invoke} does when woven: the resource method is matched, so the
 * rules on routes (and those that waited for the user) are decided here, once per request (an
 * asynchronous response that resumes calls the invoker again: the request is marked by then), on
 * the servlet request CXF serves; a refusal becomes the response the invoker returns.
 *
 * <p>Only behind CXF's servlet transport, as in TomEE: its servlet entry point has decided the
 * rules on paths.
 */
final class CxfInvocations implements EntryPointHandler {

  private final TollgateGate engine;

  CxfInvocations(TollgateGate engine) {
    this.engine = engine;
  }

  @Override
  public Object enter(Object exchange, Object unused) throws ReflectiveOperationException {
    if (!engine.decidesAtHandler(false) || !(exchange instanceof Map)) {
      return null;
    }
    CxfApi cxf = CxfApi.of(exchange);
    if (cxf == null) {
      return null;
    }
    Map<?, ?> message = cxf.inMessage(exchange);
    Object request = message == null ? null : message.get(CxfApi.HTTP_REQUEST);
    if (request == null) {
      return null;
    }
    ServletExchange servlet =
        ServletExchange.firstTimeMarked(
            request, message.get(CxfApi.HTTP_RESPONSE), RequestScope.HANDLER_DECIDED_MARK);
    if (servlet == null) {
      return null;
    }
    CxfExchange decided =
        new CxfExchange(servlet, cxf, ((Map<?, ?>) exchange).get(CxfApi.OPERATION), message);
    if (!engine.handlerEntry(decided, false)) {
      return null;
    }
    return Refusal.returning(cxf.returned(decided.refusal()));
  }

  /** The request CXF serves, with its matched route and its kind of refusal. */
  private static final class CxfExchange extends ServletBackedExchange {
    private final CxfApi cxf;
    private final Object operation;
    private final Map<?, ?> message;

    CxfExchange(ServletExchange servlet, CxfApi cxf, Object operation, Map<?, ?> message) {
      super(servlet);
      this.cxf = cxf;
      this.operation = operation;
      this.message = message;
    }

    /** The base path (context path, servlet mapping) and the operation's template. */
    @Override
    protected String matchedRoute() throws ReflectiveOperationException {
      String template = cxf.template(operation);
      if (template == null) {
        return null;
      }
      Object base = message.get(CxfApi.BASE_PATH);
      String basePath = base == null ? "" : base.toString();
      if (basePath.contains("://")) {
        basePath = URI.create(basePath).getRawPath();
      }
      return RouteTemplates.normalize(basePath + "/" + template);
    }

    @Override
    protected Object refusalResponse(RefusalMessage refusal)
        throws ReflectiveOperationException {
      return cxf.refusals().response(refusal);
    }
  }
}
