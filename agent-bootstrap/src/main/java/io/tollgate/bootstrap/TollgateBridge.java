package io.tollgate.bootstrap;

/**
 * The static facade that inlined advice calls, on the bootstrap class loader so that every
 * application class loader can see it.
 *
 * <p>Fail-open by construction: until the engine is installed, and whenever it throws, a request
 * passes as if Tollgate were absent. Failures are counted and logged at most once a minute per
 * place, never thrown into the application.
 */
public final class TollgateBridge {

  /**
   * Marks a request whose decision has been taken, so that filters, servlets and dispatches after
   * the first entry point do not count it again.
   */
  public static final String DECIDED_ATTRIBUTE = "io.tollgate.decided";

  private static volatile RequestGate gate;

  private TollgateBridge() {}

  /** Installs (or replaces) the engine. */
  public static void install(RequestGate engine) {
    gate = engine;
  }

  public static Object servletRequestStarted(Object request, Object response) {
    RequestGate engine = gate;
    if (engine == null) {
      return null;
    }
    try {
      return engine.servletRequestStarted(request, response);
    } catch (Throwable t) {
      InternalErrors.report("deciding a servlet request", t);
      return null;
    }
  }

  public static void servletRequestEnded(
      Object scope, Object request, Object response, Throwable thrown) {
    RequestGate engine = gate;
    if (engine == null || scope == null || scope instanceof Refusal) {
      return;
    }
    try {
      engine.servletRequestEnded(scope, request, response, thrown);
    } catch (Throwable t) {
      InternalErrors.report("ending a servlet request", t);
    }
  }

  public static Object springHandlerStarted(Object request, Object response) {
    RequestGate engine = gate;
    if (engine == null) {
      return null;
    }
    try {
      return engine.springHandlerStarted(request, response);
    } catch (Throwable t) {
      InternalErrors.report("deciding a Spring MVC request", t);
      return null;
    }
  }

  public static Object jaxrsResourceStarted(Object processingContext) {
    RequestGate engine = gate;
    if (engine == null) {
      return null;
    }
    try {
      return engine.jaxrsResourceStarted(processingContext);
    } catch (Throwable t) {
      InternalErrors.report("deciding a JAX-RS request", t);
      return null;
    }
  }

  /** Returns the response to use: the refusal's, or {@code response} (with headers added). */
  public static Object jaxrsResourceEnded(Object decision, Object response) {
    if (decision instanceof Refusal) {
      Object refusal = ((Refusal) decision).frameworkResponse;
      return refusal != null ? refusal : response;
    }
    RequestGate engine = gate;
    if (engine == null || decision == null || response == null) {
      return response;
    }
    try {
      engine.jaxrsResourceEnded(decision, response);
    } catch (Throwable t) {
      InternalErrors.report("adding headers to a JAX-RS response", t);
    }
    return response;
  }

  public static void serverRequestStarted(String remoteAddress) {
    RequestGate engine = gate;
    if (engine == null) {
      return;
    }
    try {
      engine.serverRequestStarted(remoteAddress);
    } catch (Throwable t) {
      InternalErrors.report("noting a server request", t);
    }
  }

  public static void serverRequestEnded() {
    RequestGate engine = gate;
    if (engine == null) {
      return;
    }
    try {
      engine.serverRequestEnded();
    } catch (Throwable t) {
      InternalErrors.report("ending a server request", t);
    }
  }
}
