package io.tollgate.instrumentation.jaxrs;

import io.tollgate.http.HttpExchange;
import io.tollgate.http.RefusalMessage;
import java.util.List;

/**
 * A JAX-RS request served behind a servlet container (RESTEasy's and CXF's servlets), as the
 * engine sees it at the resource method: the servlet request it is (read through the servlet
 * container's exchange, which already knows the client, the headers and the user), with the
 * route template the implementation matched. Quota headers go to the servlet response, which the
 * implementation writes its own into; a refusal is made as the implementation's own {@code
 * Response} ({@link #refusal()}), which the woven method returns in place of the resource's.
 */
public abstract class ServletBackedExchange implements HttpExchange {

  private final HttpExchange servlet;
  private String route;
  private boolean routeKnown;
  private Object refusal;

  protected ServletBackedExchange(HttpExchange servlet) {
    this.servlet = servlet;
  }

  /** The route template the implementation matched, context path included; or null. */
  protected abstract String matchedRoute() throws ReflectiveOperationException;

  /** The refusal as the implementation's response object. */
  protected abstract Object refusalResponse(RefusalMessage refusal)
      throws ReflectiveOperationException;

  @Override
  public String route() {
    if (!routeKnown) {
      routeKnown = true;
      try {
        route = matchedRoute();
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read the matched route: " + e, e);
      }
    }
    return route;
  }

  @Override
  public void writeRefusal(RefusalMessage message) {
    try {
      refusal = refusalResponse(message);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make the refusal's response: " + e, e);
    }
  }

  /** The refusal {@link #writeRefusal} made. */
  public Object refusal() {
    return refusal;
  }

  @Override
  public String method() {
    return servlet.method();
  }

  @Override
  public String rawPath() {
    return servlet.rawPath();
  }

  @Override
  public String remoteAddress() {
    return servlet.remoteAddress();
  }

  @Override
  public String host() {
    return servlet.host();
  }

  @Override
  public String header(String name) {
    return servlet.header(name);
  }

  @Override
  public List<String> headerLines(String name) {
    return servlet.headerLines(name);
  }

  @Override
  public String principalName() {
    return servlet.principalName();
  }

  @Override
  public String parameter(String name) {
    return servlet.parameter(name);
  }

  @Override
  public String queryParameter(String name) {
    return servlet.queryParameter(name);
  }

  @Override
  public String formParameter(String name) {
    return servlet.formParameter(name);
  }

  @Override
  public boolean formBodyUnread() {
    return servlet.formBodyUnread();
  }

  @Override
  public String cookie(String name) {
    return servlet.cookie(name);
  }

  @Override
  public void setResponseHeader(String name, String value) {
    servlet.setResponseHeader(name, value);
  }

  @Override
  public String responseHeader(String name) {
    return servlet.responseHeader(name);
  }

  @Override
  public int responseStatus(boolean uncaught) {
    return servlet.responseStatus(uncaught);
  }
}
