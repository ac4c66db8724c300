package io.tollgate.bootstrap;

/**
 * The static facade that the woven entry points call, on the bootstrap class loader so that every
 * application class loader can see it.
 *
 * <p>This is all the code Tollgate adds to an application's methods does: call one of these
 * methods and act on its answer (skip the method on a {@link Refusal}). So every method here must
 * be fail-open and never throw: until the engine is installed, and whenever it throws, a request
 * passes as if Tollgate were absent. Failures are counted and logged at most once a minute per
 * place, never thrown into the application.
 *
 * <p>While the agent starts beside the application, a request that reaches an entry point first
 * waits for the engine ({@link EngineReadiness}).
 */
public final class TollgateBridge {

  /**
   * Marks a request whose decision has been taken, so that filters, servlets and dispatches after
   * the first entry point do not count it again.
   */
  public static final String DECIDED_ATTRIBUTE = "io.tollgate.decided";

  private static volatile RequestGate gate;

  private TollgateBridge() {}

  /** Installs (or replaces) the engine, and ends any wait for it. */
  public static void install(RequestGate engine) {
    gate = engine;
    EngineReadiness.ready();
  }

  /** Woven into {@code Servlet.service} and {@code Filter.doFilter}, before the method's code. */
  public static Object servletRequestStarted(Object request, Object response) {
    RequestGate engine = engine();
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

  /** Woven before every return and throw of a method that called {@link #servletRequestStarted}. */
  public static void servletRequestEnded(Object scope, Throwable thrown) {
    RequestGate engine = gate;
    if (engine == null || scope == null || scope instanceof Refusal) {
      return;
    }
    try {
      engine.servletRequestEnded(scope, thrown);
    } catch (Throwable t) {
      InternalErrors.report("ending a servlet request", t);
    }
  }

  /** Woven into Spring MVC's {@code HandlerAdapter.handle}. */
  public static Object springHandlerStarted(Object request, Object response) {
    RequestGate engine = engine();
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

  /** Woven into Jersey's {@code ResourceMethodInvoker.apply}. */
  public static Object jaxrsResourceStarted(Object processingContext) {
    RequestGate engine = engine();
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

  /**
   * Woven before every return of Jersey's {@code ResourceMethodInvoker.apply}, and in place of its
   * code when it is refused ({@code response} null). Returns the response to use: the refusal's,
   * or {@code response} (with headers added).
   */
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

  /** Woven into a server's own request handler (Grizzly's), given its request object. */
  public static void serverRequestStarted(Object serverRequest) {
    RequestGate engine = engine();
    if (engine == null) {
      return;
    }
    try {
      engine.serverRequestStarted(serverRequest);
    } catch (Throwable t) {
      InternalErrors.report("noting a server request", t);
    }
  }

  /** Woven before every return and throw of the handler that called {@link #serverRequestStarted}. */
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

  /** The engine; while the agent starts, after waiting for it. Null: let the request pass. */
  private static RequestGate engine() {
    RequestGate engine = gate;
    if (engine != null) {
      return engine;
    }
    try {
      // whatever the wait's outcome: the engine may have been installed just before it began
      EngineReadiness.await();
      return gate;
    } catch (Throwable t) {
      InternalErrors.report("waiting for the agent to start", t);
      return null;
    }
  }
}
