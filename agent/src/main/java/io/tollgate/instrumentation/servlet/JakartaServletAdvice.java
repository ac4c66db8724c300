package io.tollgate.instrumentation.servlet;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code jakarta.servlet} {@code Servlet.service} and {@code Filter.doFilter}.
 *
 * <p>Decides once per request, at the outermost entry point: only for the original
 * {@code REQUEST} dispatch (not forwards, includes, error pages or async re-dispatches) and only if
 * no earlier entry point marked the request. Kept thin: everything else happens behind the bridge.
 * {@code suppress = Throwable.class} lets the method run if the advice itself fails.
 */
public final class JakartaServletAdvice {

  private JakartaServletAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Refusal.class)
  public static Object onEnter(
      @Advice.Argument(0) ServletRequest request, @Advice.Argument(1) ServletResponse response) {
    if (request.getDispatcherType() != DispatcherType.REQUEST
        || request.getAttribute(TollgateBridge.DECIDED_ATTRIBUTE) != null) {
      return null;
    }
    request.setAttribute(TollgateBridge.DECIDED_ATTRIBUTE, Boolean.TRUE);
    return TollgateBridge.servletRequestStarted(request, response);
  }

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void onExit(
      @Advice.Enter Object scope,
      @Advice.Argument(0) ServletRequest request,
      @Advice.Argument(1) ServletResponse response,
      @Advice.Thrown Throwable thrown) {
    if (scope != null) {
      TollgateBridge.servletRequestEnded(scope, request, response, thrown);
    }
  }
}
