package io.tollgate.instrumentation.jaxrs;

import io.tollgate.http.HttpExchange;
import io.tollgate.rules.RouteTemplates;
import java.net.URI;
import java.security.Principal;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A Jersey {@code ContainerRequest} (Jersey 2 or 3+) seen as an {@link HttpExchange}.
 *
 * <p>Jersey's classes live in the application's class loader; they are called through the {@link
 * JerseyCalls} written for that Jersey. The client's address comes from the container in front of
 * Jersey (a servlet request, or Grizzly's request), since Jersey's own request does not carry it.
 * Responses are not written here: the woven invoker returns Jersey's own {@code Response}.
 */
public final class JerseyExchange implements HttpExchange {

  private final JerseyCalls calls;
  private final Object request;
  private final String remoteAddress;
  private String route;

  public JerseyExchange(JerseyCalls calls, Object containerRequest, String remoteAddress) {
    this.calls = calls;
    this.request = containerRequest;
    this.remoteAddress = remoteAddress;
  }

  @Override
  public String method() {
    return calls.getMethod(request);
  }

  @Override
  public String rawPath() {
    return calls.getRequestUri(request).getRawPath();
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public String header(String name) {
    List<String> values = headerLines(name);
    return values.isEmpty() ? null : values.get(0);
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<String> headerLines(String name) {
    List<?> values = calls.getRequestHeader(request, name);
    return values == null ? Collections.<String>emptyList() : (List<String>) values;
  }

  @Override
  public String principalName() {
    Object security = calls.getSecurityContext(request);
    Principal principal = security == null ? null : calls.getUserPrincipal(security);
    return principal == null ? null : principal.getName();
  }

  @Override
  public String parameter(String name) {
    Object query = calls.getQueryParameters(calls.getUriInfo(request));
    Object value = calls.getFirst(query, name);
    return value == null ? null : value.toString();
  }

  @Override
  public String cookie(String name) {
    Map<?, ?> cookies = calls.getCookies(request);
    Object cookie = cookies == null ? null : cookies.get(name);
    return cookie == null ? null : calls.getValue(cookie);
  }

  @Override
  public String route() {
    if (route == null) {
      route = matchedRoute();
    }
    return route;
  }

  /** The base path plus the matched templates, outermost first: {@code /api/orders/{id}}. */
  private String matchedRoute() {
    List<?> templates = calls.getMatchedTemplates(calls.getUriInfo(request));
    if (templates == null || templates.isEmpty()) {
      return null;
    }
    StringBuilder joined = new StringBuilder();
    URI base = calls.getBaseUri(request);
    if (base != null && base.getRawPath() != null) {
      joined.append(base.getRawPath());
    }
    for (int i = templates.size() - 1; i >= 0; i--) {
      joined.append('/').append(calls.getTemplate(templates.get(i)));
    }
    return RouteTemplates.normalize(joined.toString());
  }

  public Object property(String name) {
    return calls.getProperty(request, name);
  }

  public void setProperty(String name, Object value) {
    calls.setProperty(request, name, value);
  }

  @Override
  public void setResponseHeader(String name, String value) {
    throw new UnsupportedOperationException("Jersey responses are returned by the woven invoker");
  }

  @Override
  public void writeResponse(int status, List<String[]> headers, String contentType, byte[] body) {
    throw new UnsupportedOperationException("Jersey responses are returned by the woven invoker");
  }

  @Override
  public String responseHeader(String name) {
    return null;
  }
}
