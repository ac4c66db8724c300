package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.http.HttpExchange;
import io.tollgate.http.RefusalMessage;
import io.tollgate.rules.RouteTemplates;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
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

  private final JerseyApi jersey;
  private final JerseyCalls calls;
  private final Object request;
  private final String remoteAddress;
  /** The servlet container's exchange in front of Jersey, or null. */
  private final HttpExchange outer;
  private String route;
  /** Quota headers kept for the resource's response: names and values, alternating. */
  private List<String> headers;
  private Object refusal;
  /** The {@code ContainerResponse} Jersey wrote for this request, once it has ({@link JerseyCompletion}). */
  private volatile Object written;
  /** Whether writing the response failed: its status is then not known. */
  private volatile boolean writeFailed;

  public JerseyExchange(JerseyCalls calls, Object containerRequest, String remoteAddress) {
    this(null, calls, containerRequest, remoteAddress, null);
  }

  JerseyExchange(
      JerseyApi jersey, Object containerRequest, HttpExchange outer, String remoteAddress) {
    this(jersey, jersey.calls, containerRequest, remoteAddress, outer);
  }

  private JerseyExchange(JerseyApi jersey, JerseyCalls calls, Object containerRequest,
      String remoteAddress, HttpExchange outer) {
    this.jersey = jersey;
    this.calls = calls;
    this.request = containerRequest;
    this.remoteAddress = remoteAddress;
    this.outer = outer;
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

  /**
   * The servlet container's host when there is one in front; else the Host header (Grizzly fills
   * it from HTTP/2's {@code :authority}), or the host of the request URI Jersey built.
   */
  @Override
  public String host() {
    if (outer != null) {
      return outer.host();
    }
    String host = HttpExchange.hostOf(header("Host"));
    return host != null ? host : HttpExchange.canonicalHost(calls.getRequestUri(request).getHost());
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
  public String queryParameter(String name) {
    return parameter(name);
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
    if (outer != null) {
      outer.setResponseHeader(name, value);
      return;
    }
    if (headers == null) {
      headers = new ArrayList<>(6);
    }
    headers.add(name);
    headers.add(value);
  }

  /** Whether quota headers wait for the resource's response. */
  boolean hasHeadersForResponse() {
    return headers != null;
  }

  /** Sets the kept quota headers on {@code containerResponse}, each replacing any of its name. */
  void setHeadersOn(Object containerResponse) {
    Object map = calls.getHeaders(containerResponse);
    for (int i = 0; i + 1 < headers.size(); i += 2) {
      calls.putSingle(map, headers.get(i), headers.get(i + 1));
    }
  }

  /** Makes the refusal as Jersey's own {@code ContainerResponse}, for the woven invoker to return. */
  @Override
  public void writeRefusal(RefusalMessage message) {
    try {
      refusal = jersey.refusals().containerResponse(request, message.status(),
          message.namesAndValues(), message.contentType(), message.body());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make Jersey's response for the refusal: " + e, e);
    }
  }

  /** The refusal that {@link #writeRefusal} made. */
  Object refusal() {
    return refusal;
  }

  /**
   * The response header the application set, once Jersey has written the response (read at the
   * request's end); null before, and where a servlet container stands in front (whose own exchange
   * is asked then).
   */
  @Override
  public String responseHeader(String name) {
    Object response = written;
    if (response == null) {
      return null;
    }
    Object value = calls.getFirst(calls.getHeaders(response), name);
    return value == null ? null : value.toString();
  }

  /** The status of the response Jersey wrote; -1 before it did, or when writing it failed. */
  @Override
  public int responseStatus(boolean uncaught) {
    Object response = written;
    if (response == null || writeFailed || jersey == null) {
      return -1;
    }
    try {
      return jersey.completions().status(response);
    } catch (ReflectiveOperationException e) {
      return -1;
    }
  }

  /**
   * Runs {@code action} once Jersey has written the response (resumed asynchronous ones too) or
   * failed to; at once where this cannot be watched (a servlet container in front, whose own
   * exchange ends the request, or a Jersey whose writer cannot be replaced: then the response is
   * not known, and {@code count-when} keeps the charge).
   */
  @Override
  public void whenComplete(Runnable action) {
    if (jersey != null && outer == null) {
      try {
        JerseyCompletion.register(jersey.completions(), request, this, action);
        return;
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not watched: run now, knowing nothing of the response
      }
    }
    action.run();
  }

  /** Jersey is writing {@code containerResponse}'s status and headers. */
  void responseWritten(Object containerResponse) {
    written = containerResponse;
  }

  /** Jersey could not write the response. */
  void responseFailed() {
    writeFailed = true;
  }
}
