package io.tollgate.instrumentation.container.jetty;

import io.tollgate.engine.RequestScope;
import io.tollgate.engine.TollgateGate;
import io.tollgate.instrumentation.DirectCalls;
import io.tollgate.instrumentation.EntryPointHandler;
import io.tollgate.instrumentation.EntryPointMethod;
import io.tollgate.instrumentation.FrameworkModule;
import io.tollgate.instrumentation.container.ContainerRequests;
import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.bootstrap.InternalErrors;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Jetty's own request entry in Jetty 9.4 ({@code javax}), 10 ({@code javax}) and 11 ({@code
 * jakarta}), {@code Server.handle(HttpChannel)}: every request passes it before Jetty looks for a
 * context or servlet, so the requests Jetty answers itself (a path no servlet is mapped to, which
 * its {@code ServletHandler} answers 404 without a servlet) pass the rules too. The channel's
 * request and response implement the servlet API of their Jetty. (Jetty 12 has no such method;
 * its servlet handlers answer unmapped paths with a servlet, which is woven anyway.)
 */
public final class JettyModule implements FrameworkModule {

  // Weavers by name, each loaded when it first weaves a method, not in premain (EntryPointMethod)
  private static final String REQUEST_ENTRY_WEAVER =
      "io.tollgate.instrumentation.RequestEntryWeaver";

  /** Jetty's server (also read by {@code EntryPointClassFiles}). */
  public static final String SERVER = "org.eclipse.jetty.server.Server";

  private static final String CHANNEL = "org.eclipse.jetty.server.HttpChannel";
  private static final String REQUEST = "org.eclipse.jetty.server.Request";
  /** What Jetty answers, after {@code Server.handle} returns, to a request no handler took. */
  private static final int NOT_HANDLED = 404;

  /**
   * The calls into the Jetty of a class it is asked for (its channel, its request), generated
   * once per class; null, kept, for a Jetty that is not as expected, so that its requests pass at
   * the cost of one lookup rather than a failed generation each.
   */
  private static final ClassValue<JettyCalls> CALLS =
      new ClassValue<JettyCalls>() {
        @Override
        protected JettyCalls computeValue(Class<?> jettyClass) {
          Map<String, String> calls = new HashMap<>();
          calls.put("getRequest", CHANNEL + "#getRequest");
          calls.put("getResponse", CHANNEL + "#getResponse");
          calls.put("isHandled", REQUEST + "#isHandled");
          try {
            return DirectCalls.implement(JettyCalls.class, calls,
                "io.tollgate.generated.JettyCalls", jettyClass.getClassLoader());
          } catch (ReflectiveOperationException | LinkageError e) {
            InternalErrors.report("reading Jetty's " + CHANNEL + " (" + jettyClass + ")", e);
            return null;
          }
        }
      };

  @Override
  public List<EntryPointMethod> entryPoints() {
    return Collections.singletonList(
        EntryPointMethod.inClass("Jetty", SERVER, "handle",
            "(Lorg/eclipse/jetty/server/HttpChannel;)V", REQUEST_ENTRY_WEAVER));
  }

  @Override
  public EntryPointHandler handler(TollgateGate engine) {
    ContainerRequests requests = new ContainerRequests(engine);
    return new EntryPointHandler() {
      @Override
      public Object enter(Object channel, Object unused) {
        if (!engine.active()) {
          return null;
        }
        JettyCalls calls = CALLS.get(channel.getClass());
        if (calls == null) {
          return null; // reported when its class was met; the servlet entry points still decide
        }
        return requests.started(calls.getRequest(channel), calls.getResponse(channel));
      }

      @Override
      public void exit(Object scope, Throwable thrown) {
        try {
          if (scope instanceof RequestScope && thrown == null) {
            noteJettysOwnAnswer((ServletExchange) ((RequestScope) scope).exchange());
          }
        } finally {
          // whatever happened above, the request ends: the thread's next one must not look nested
          requests.ended(scope, thrown);
        }
      }
    };
  }

  /**
   * A request that no handler took (a path no servlet is mapped to, with no default servlet) has
   * no status yet when {@code Server.handle} returns: Jetty answers it 404 just after. That is the
   * status its end settles by ({@code count-when: [404]} counts scanners); the response itself is
   * left to Jetty.
   */
  private static void noteJettysOwnAnswer(ServletExchange exchange) {
    Object request = exchange.servletRequest();
    JettyCalls calls = CALLS.get(request.getClass());
    if (calls != null && !calls.isHandled(request)) {
      exchange.containerAnswersUnlessCommitted(NOT_HANDLED);
    }
  }

  @Override
  public String requestName() {
    return "a Jetty request";
  }
}
