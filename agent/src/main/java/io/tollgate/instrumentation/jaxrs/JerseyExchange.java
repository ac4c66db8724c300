package io.tollgate.instrumentation.jaxrs;

import io.tollgate.http.HttpExchange;
import io.tollgate.rules.RouteTemplates;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.security.Principal;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A Jersey {@code ContainerRequest} (Jersey 2 or 3+) seen as an {@link HttpExchange}.
 *
 * <p>Jersey's classes live in the application's class loader, so they are reached by reflection
 * on their public methods; a request needs only a few calls. The client's address comes from the
 * container in front of Jersey (a servlet request, or Grizzly's request), since Jersey's own
 * request does not carry it. Responses are not written here: the woven invoker returns Jersey's own
 * {@code Response}.
 */
public final class JerseyExchange implements HttpExchange {

  private final Object request;
  private final String remoteAddress;
  private String route;

  private JerseyExchange(Object request, String remoteAddress) {
    this.request = request;
    this.remoteAddress = remoteAddress;
  }

  public static JerseyExchange of(Object containerRequest, String remoteAddress) {
    return new JerseyExchange(containerRequest, remoteAddress);
  }

  @Override
  public String method() {
    return (String) call(request, "getMethod");
  }

  @Override
  public String rawPath() {
    URI uri = (URI) call(request, "getRequestUri");
    return uri.getRawPath();
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
    Object values = call(request, "getRequestHeader", name);
    return values == null ? Collections.<String>emptyList() : (List<String>) values;
  }

  @Override
  public String principalName() {
    Object security = call(request, "getSecurityContext");
    Principal principal = security == null ? null : (Principal) call(security, "getUserPrincipal");
    return principal == null ? null : principal.getName();
  }

  @Override
  public String parameter(String name) {
    Object uriInfo = call(request, "getUriInfo");
    Object query = call(uriInfo, "getQueryParameters");
    Object value = call(query, "getFirst", (Object) name);
    return value == null ? null : value.toString();
  }

  @Override
  public String cookie(String name) {
    Map<?, ?> cookies = (Map<?, ?>) call(request, "getCookies");
    Object cookie = cookies == null ? null : cookies.get(name);
    return cookie == null ? null : (String) call(cookie, "getValue");
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
    Object uriInfo = call(request, "getUriInfo");
    List<?> templates = (List<?>) call(uriInfo, "getMatchedTemplates");
    if (templates == null || templates.isEmpty()) {
      return null;
    }
    StringBuilder joined = new StringBuilder();
    URI base = (URI) call(request, "getBaseUri");
    if (base != null && base.getRawPath() != null) {
      joined.append(base.getRawPath());
    }
    for (int i = templates.size() - 1; i >= 0; i--) {
      joined.append('/').append((String) call(templates.get(i), "getTemplate"));
    }
    return RouteTemplates.normalize(joined.toString());
  }

  public Object property(String name) {
    return call(request, "getProperty", name);
  }

  public void setProperty(String name, Object value) {
    call(request, "setProperty", name, value);
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

  /** Methods found per class, by name and arity; a ClassValue so that redeployed apps unload. */
  private static final ClassValue<java.util.concurrent.ConcurrentMap<String, Method>> METHODS =
      new ClassValue<java.util.concurrent.ConcurrentMap<String, Method>>() {
        @Override
        protected java.util.concurrent.ConcurrentMap<String, Method> computeValue(Class<?> type) {
          return new java.util.concurrent.ConcurrentHashMap<>();
        }
      };

  private static Object call(Object target, String name, Object... args) {
    try {
      Class<?> type = target.getClass();
      Method method =
          METHODS.get(type).computeIfAbsent(name + "/" + args.length,
              k -> publicMethod(type, name, args.length));
      return method.invoke(target, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot call " + name + " on " + target.getClass(), e);
    }
  }

  /**
   * A public method by name and arity, declared by a public type: implementation classes are often
   * not public (an anonymous {@code SecurityContext}), their interfaces are.
   */
  private static Method publicMethod(Class<?> type, String name, int arity) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      Method found = publicMethodOn(c, name, arity);
      if (found != null) {
        return found;
      }
    }
    throw new IllegalStateException("no public method " + name + " on " + type);
  }

  private static Method publicMethodOn(Class<?> type, String name, int arity) {
    if (Modifier.isPublic(type.getModifiers())) {
      for (Method method : type.getMethods()) {
        if (method.getName().equals(name) && method.getParameterCount() == arity
            && Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
          return method;
        }
      }
    }
    for (Class<?> iface : type.getInterfaces()) {
      Method found = publicMethodOn(iface, name, arity);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
