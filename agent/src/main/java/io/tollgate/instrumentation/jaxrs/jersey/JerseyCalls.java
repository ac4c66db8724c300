package io.tollgate.instrumentation.jaxrs.jersey;

import java.net.URI;
import java.security.Principal;
import java.util.List;
import java.util.Map;

/**
 * The Jersey and JAX-RS methods the engine calls, taking Jersey's objects as {@code Object}.
 * Jersey's classes are the application's, built against {@code javax.ws.rs} (Jersey 2) or {@code
 * jakarta.ws.rs} (Jersey 3 and later), so {@link io.tollgate.instrumentation.DirectCalls} writes
 * an implementation for each Jersey it meets ({@link JerseyApi} says which method each calls), as
 * it does for the servlet API.
 *
 * <p>Public only because the generated class, in a class loader of its own, implements it.
 */
public interface JerseyCalls {

  // RequestProcessingContext, what the woven resource method invoker is given

  /** Its {@code ContainerRequest}. */
  Object request(Object processingContext);

  // ContainerRequest

  String getMethod(Object request);

  URI getRequestUri(Object request);

  URI getBaseUri(Object request);

  List<?> getRequestHeader(Object request, String name);

  /** The request's {@code SecurityContext}. */
  Object getSecurityContext(Object request);

  /** The request's {@code ExtendedUriInfo}. */
  Object getUriInfo(Object request);

  /** The request's cookies: names to {@code Cookie}. */
  Map<?, ?> getCookies(Object request);

  Object getProperty(Object request, String name);

  void setProperty(Object request, String name, Object value);

  // SecurityContext, UriInfo, Cookie, UriTemplate

  Principal getUserPrincipal(Object securityContext);

  /** {@code UriInfo.getQueryParameters()}: a {@code MultivaluedMap}. */
  Object getQueryParameters(Object uriInfo);

  /** {@code ExtendedUriInfo.getMatchedTemplates()}: Jersey's {@code UriTemplate}s. */
  List<?> getMatchedTemplates(Object uriInfo);

  /** The cookie's {@code getValue()}. */
  String getValue(Object cookie);

  /** The {@code UriTemplate}'s {@code getTemplate()}. */
  String getTemplate(Object uriTemplate);

  // ContainerResponse and MultivaluedMap

  /** {@code ContainerResponse.getHeaders()}: a {@code MultivaluedMap}. */
  Object getHeaders(Object containerResponse);

  Object getFirst(Object multivaluedMap, Object key);

  void putSingle(Object multivaluedMap, Object key, Object value);
}
