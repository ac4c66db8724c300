package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.instrumentation.ApiPerClass;
import io.tollgate.instrumentation.DirectCalls;

/**
 * What the engine knows of one Jersey: its JAX-RS namespace ({@code javax.ws.rs} or {@code
 * jakarta.ws.rs}), the {@link JerseyCalls} into it, and how to build a refusal with it.
 *
 * <p>Found once per copy of Jersey, from the class of the object the woven resource method invoker
 * is given; a {@code ClassValue}, so that a redeployed application's Jersey can be unloaded.
 */
public final class JerseyApi {

  private static final ApiPerClass<JerseyApi> BY_PROCESSING_CONTEXT_CLASS =
      new ApiPerClass<JerseyApi>("Jersey") {
        @Override
        protected JerseyApi match(Class<?> processingContext)
            throws ReflectiveOperationException {
          return new JerseyApi(processingContext.getClassLoader());
        }
      };

  static final String PROCESSING_CONTEXT =
      "org.glassfish.jersey.server.internal.process.RequestProcessingContext";
  static final String CONTAINER_REQUEST = "org.glassfish.jersey.server.ContainerRequest";
  static final String CONTAINER_RESPONSE = "org.glassfish.jersey.server.ContainerResponse";

  private static final String REQUEST = CONTAINER_REQUEST + "#";
  private static final String CORE = ".core.";

  /**
   * Each method of {@link JerseyCalls}: the type and method it calls. A type that starts with
   * {@code .} is in the JAX-RS namespace.
   */
  private static final String[][] CALLS = {
    {"request", PROCESSING_CONTEXT + "#request"},
    {"getMethod", REQUEST + "getMethod"},
    {"getRequestUri", REQUEST + "getRequestUri"},
    {"getBaseUri", REQUEST + "getBaseUri"},
    {"getRequestHeader", REQUEST + "getRequestHeader"},
    {"getSecurityContext", REQUEST + "getSecurityContext"},
    {"getUriInfo", REQUEST + "getUriInfo"},
    {"getCookies", REQUEST + "getCookies"},
    {"getProperty", REQUEST + "getProperty"},
    {"setProperty", REQUEST + "setProperty"},
    {"getUserPrincipal", CORE + "SecurityContext#getUserPrincipal"},
    {"getQueryParameters", CORE + "UriInfo#getQueryParameters"},
    {"getMatchedTemplates", "org.glassfish.jersey.server.ExtendedUriInfo#getMatchedTemplates"},
    {"getValue", CORE + "Cookie#getValue"},
    {"getTemplate", "org.glassfish.jersey.uri.UriTemplate#getTemplate"},
    {"getHeaders", CONTAINER_RESPONSE + "#getHeaders"},
    {"getFirst", CORE + "MultivaluedMap#getFirst"},
    {"putSingle", CORE + "MultivaluedMap#putSingle"},
  };

  /**
   * The API for the Jersey whose resource method invoker was given {@code processingContext}; null
   * when it did not match (logged once).
   */
  public static JerseyApi of(Object processingContext) {
    return BY_PROCESSING_CONTEXT_CLASS.get(processingContext.getClass());
  }

  public final JerseyCalls calls;
  /** {@code javax.ws.rs} or {@code jakarta.ws.rs}. */
  final String namespace;
  private final ClassLoader loader;
  private volatile JerseyRefusals refusals;
  private volatile JerseyCompletion.Api completions;

  private JerseyApi(ClassLoader loader) throws ReflectiveOperationException {
    this.loader = loader;
    this.namespace = namespaceOf(loader);
    this.calls = callsFor(namespace, loader);
  }

  /** The JAX-RS namespace that {@code loader}'s Jersey was built against. */
  static String namespaceOf(ClassLoader loader) throws ReflectiveOperationException {
    Class<?> request = Class.forName(CONTAINER_REQUEST, false, loader);
    String securityContext = request.getMethod("getSecurityContext").getReturnType().getName();
    return securityContext.substring(0, securityContext.indexOf(CORE));
  }

  static JerseyCalls callsFor(String namespace, ClassLoader loader)
      throws ReflectiveOperationException {
    return DirectCalls.implementIn(namespace, JerseyCalls.class, CALLS, loader);
  }

  /** Watches this Jersey's responses being written: found at the first request that needs it. */
  JerseyCompletion.Api completions() throws ReflectiveOperationException {
    JerseyCompletion.Api found = completions;
    if (found == null) {
      found = new JerseyCompletion.Api(loader);
      completions = found;
    }
    return found;
  }

  /** Builds refusals in this Jersey: found at the first refusal, which may never come. */
  public JerseyRefusals refusals() throws ReflectiveOperationException {
    JerseyRefusals built = refusals;
    if (built == null) {
      built = new JerseyRefusals(loader, namespace);
      refusals = built;
    }
    return built;
  }
}
