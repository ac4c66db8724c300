package io.tollgate.instrumentation.jaxrs;

import io.tollgate.bootstrap.TollgateBridge;
import net.bytebuddy.asm.Advice;
import org.glassfish.grizzly.http.server.Request;

/**
 * Inlined into Jersey's {@code GrizzlyHttpContainer.service(Request, Response)}: Jersey's own
 * request object does not carry the client's socket address, Grizzly's does. It is noted for the
 * thread, which then runs the resource method.
 */
public final class GrizzlyContainerAdvice {

  private GrizzlyContainerAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void onEnter(@Advice.Argument(0) Request request) {
    TollgateBridge.serverRequestStarted(request.getRemoteAddr());
  }

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void onExit() {
    TollgateBridge.serverRequestEnded();
  }
}
