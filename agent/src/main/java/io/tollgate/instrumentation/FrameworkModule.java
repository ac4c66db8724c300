package io.tollgate.instrumentation;

import io.tollgate.engine.TollgateGate;
import java.util.List;

/**
 * One framework Tollgate supports (the servlet API, Spring MVC, Jersey, RESTEasy...), in a folder
 * of its own under {@code instrumentation/}: the methods it weaves, and the handler their woven
 * code calls, which turns the framework's request into the engine's exchange and applies the
 * engine's decision in the framework's own way.
 *
 * <p>The engine knows no framework, and the bridge only numbers: a new framework is a new module
 * and one line in {@code io.tollgate.agent.FrameworkModules}.
 */
public interface FrameworkModule {

  /** The methods to weave, each with its weaver; their woven code calls {@link #handler}. */
  List<EntryPointMethod> entryPoints();

  /** The handler of this module's entry points, made once the engine is ready. */
  EntryPointHandler handler(TollgateGate engine);

  /**
   * Whether its handler is made at the first call of its entry points rather than with the
   * engine: an outbound client's, so that its handler's classes (some 20 for the six client
   * modules) are loaded by an application that calls that client, at its first call, not by the
   * agent's start-up thread beside every application's start. Not an inbound framework's: its
   * handler would then be made on the application's first request.
   */
  default boolean handlerAtFirstCall() {
    return false;
  }

  /** What its requests are called in the agent's log: "a servlet request". */
  String requestName();
}
