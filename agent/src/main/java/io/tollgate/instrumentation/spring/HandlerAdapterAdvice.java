package io.tollgate.instrumentation.spring;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HandlerAdapter.handle(request, response, handler)}: the handler is chosen and
 * the route template is in the request, so rules on routes are decided here. The arguments are
 * taken as {@code Object}, so one advice serves Spring 5 ({@code javax}) and 6+ ({@code jakarta}).
 * A refusal is written to the response and the handler skipped: {@code handle} then returns null,
 * which tells {@code DispatcherServlet} the response is complete.
 */
public final class HandlerAdapterAdvice {

  private HandlerAdapterAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Refusal.class)
  public static Object onEnter(
      @Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
    return TollgateBridge.springHandlerStarted(request, response);
  }
}
