package io.tollgate.bootstrap;

/**
 * The static facade that the woven entry points call, on the bootstrap class loader so that every
 * application class loader can see it.
 *
 * <p>This is all the code Tollgate adds to an application's methods does: call one of these
 * methods and act on its answer (skip the method on a {@link Refusal}). So every method here must
 * be fail-open and never throw: until the engine is installed, and whenever it throws, a request
 * passes as if Tollgate were absent. Failures are counted and logged at most once a minute per
 * place, never thrown into the application: every method's whole body is guarded, and so is the
 * reporting (an {@link OutOfMemoryError} or {@link StackOverflowError} may strike again there), by
 * a last catch that does nothing at all and so cannot fail.
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
  /** Whether any request has waited for the agent's start; until then none is looked up. */
  private static volatile boolean anyWaited;
  /** How long the request this thread enters waited for the agent's start, while it enters. */
  private static final ThreadLocal<Long> STARTUP_WAIT = new ThreadLocal<>();
  /** Set while the refusal thrown into the application's read of its body unwinds this thread. */
  private static final ThreadLocal<Boolean> REFUSED_WHILE_READING = new ThreadLocal<>();

  private TollgateBridge() {}

  /** Installs (or replaces) the engine, and ends any wait for it. */
  public static void install(RequestGate engine) {
    gate = engine;
    EngineReadiness.ready();
  }

  /**
   * Woven at the start of every entry point: {@code entryPoint} is the number the agent gave it,
   * {@code first} and {@code second} what it passes (its arguments). Returns null, a scope for the
   * end, or a {@link Refusal}, on which the woven method returns at once.
   */
  public static Object enter(int entryPoint, Object first, Object second) {
    try {
      RequestGate engine = gate;
      if (engine != null) {
        return engine.enter(entryPoint, first, second);
      }
      return enterWhileStarting(entryPoint, first, second);
    } catch (Throwable t) {
      failed("deciding a request", entryPoint, t);
      return null;
    }
  }

  /**
   * As {@link #enter}, but never waits for the agent's start: woven where the application calls
   * out (its outbound HTTP calls). Such a call made while the agent starts goes out at once, as it
   * would without the agent: an application that calls a service while it starts is not held for
   * the agent, and the agent, should anything it starts make such a call, never waits for itself.
   */
  public static Object enterIfStarted(int entryPoint, Object first, Object second) {
    try {
      RequestGate engine = gate;
      return engine == null ? null : engine.enter(entryPoint, first, second);
    } catch (Throwable t) {
      failed("deciding an outbound call", entryPoint, t);
      return null;
    }
  }

  /** {@link #enter} before the engine is installed: waits for it, and notes how long. */
  private static Object enterWhileStarting(int entryPoint, Object first, Object second)
      throws Exception {
    long start = System.nanoTime();
    RequestGate engine = engine();
    long waited = Math.max(1, System.nanoTime() - start);
    if (engine == null) {
      return null;
    }
    anyWaited = true;
    STARTUP_WAIT.set(waited);
    try {
      return engine.enter(entryPoint, first, second);
    } finally {
      STARTUP_WAIT.remove();
    }
  }

  /**
   * Reports a failure of the engine, and drops whatever fails while reporting it: the one place
   * the bridge's catch blocks call, so that nothing thrown there reaches the application.
   */
  private static void failed(String doing, int entryPoint, Throwable failure) { // -1: none
    try {
      if (entryPoint < 0) {
        InternalErrors.report(doing, failure);
      } else {
        InternalErrors.report(doing, entryPoint, failure);
      }
    } catch (Throwable ignored) {
      // reporting is guarded itself; this catches what strikes on the call (a StackOverflowError)
    }
  }

  /**
   * How long the request this thread is entering waited for the agent's start (0 when it did
   * not): the engine counts it in the time it may hold the request at most.
   */
  public static long startupWaitNanos() {
    if (!anyWaited) {
      return 0;
    }
    Long waited = STARTUP_WAIT.get();
    return waited == null ? 0 : waited;
  }

  /**
   * Woven before every return and throw of a method that called {@link #enter}: nothing to do when
   * enter gave no scope (most calls: the filters after a request's first).
   */
  public static void exit(int entryPoint, Object scope, Throwable thrown) {
    try {
      RequestGate engine = gate;
      if (engine == null || scope == null || scope instanceof Refusal) {
        return;
      }
      engine.exit(entryPoint, scope, thrown);
    } catch (Throwable t) {
      failed("ending a request", entryPoint, t);
    }
  }

  /**
   * Woven before every return of a method that returns the framework's response, and in place of
   * its code when it is refused ({@code result} null). Returns the value to return: the refusal's
   * framework response, or {@code result} (perhaps with headers added).
   */
  public static Object returned(int entryPoint, Object scope, Object result) {
    if (scope instanceof Refusal) {
      Object refusal = ((Refusal) scope).frameworkResponse;
      return refusal != null ? refusal : result;
    }
    try {
      RequestGate engine = gate;
      if (engine == null || scope == null) {
        return result;
      }
      return engine.returned(entryPoint, scope, result);
    } catch (Throwable t) {
      failed("completing a response", entryPoint, t);
      return result;
    }
  }

  /**
   * Woven at the start of the container's methods that read a request's parameters or body
   * ({@code getParameter}, {@code getInputStream}...), {@code request} being the container's
   * request, {@code how} whether the method parses the parameters or hands over the raw body:
   * lets rules keyed by a form field decide now that the application reads it. Returns
   * normally, except when such a rule refused the request: its response is written, and {@link
   * RefusedWhileReading} unwinds the application to the request's outermost entry point.
   */
  public static void bodyRead(int entryPoint, Object request, Object how) {
    RequestGate engine = gate;
    if (engine == null) {
      return; // no request has an engine's scope to decide in before it is installed
    }
    Object answer;
    try {
      answer = engine.enter(entryPoint, request, how);
    } catch (Throwable t) {
      InternalErrors.report("deciding a request as its body is read (entry point " + entryPoint
          + ")", t);
      return;
    }
    if (answer instanceof Refusal) {
      REFUSED_WHILE_READING.set(Boolean.TRUE);
      throw RefusedWhileReading.INSTANCE;
    }
  }

  /**
   * Woven where a servlet or container entry point ends by an exception, after {@link #exit}:
   * whether it is the refusal this thread threw while the application read its body ({@link
   * RefusedWhileReading}), perhaps wrapped by the application. The first such entry point it
   * unwinds to (the servlet's own {@code service}, or the filter that read) swallows it, once,
   * and returns normally: the response is complete, and the container must not log the refusal
   * as a failure nor answer 500. {@code scope} is what the entry point's start answered.
   */
  public static boolean swallows(Object scope, Throwable thrown) {
    try {
      if (REFUSED_WHILE_READING.get() == null || !RefusedWhileReading.isIn(thrown)) {
        return false;
      }
      REFUSED_WHILE_READING.remove();
      return true;
    } catch (Throwable t) {
      return false;
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
      failed("waiting for the agent to start", -1, t);
      return null;
    }
  }
}
