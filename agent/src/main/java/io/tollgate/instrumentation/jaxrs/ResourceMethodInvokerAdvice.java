package io.tollgate.instrumentation.jaxrs;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined into Jersey's {@code ResourceMethodInvoker.apply(RequestProcessingContext)}, which
 * invokes the matched resource method and returns Jersey's {@code ContainerResponse}.
 *
 * <p>Here the route template is known, and nothing has been suspended yet: a refused request skips
 * the whole invocation, asynchronous resource methods included, and the 429 becomes the returned
 * response. No exception is involved, so no {@code ExceptionMapper} can rewrite it, and Jersey
 * writes it (with its response filters) like any other, with or without a servlet container. The
 * types are taken as {@code Object}, so one advice serves Jersey 2 and 3+.
 */
public final class ResourceMethodInvokerAdvice {

  private ResourceMethodInvokerAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Refusal.class)
  public static Object onEnter(@Advice.Argument(0) Object processingContext) {
    return TollgateBridge.jaxrsResourceStarted(processingContext);
  }

  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void onExit(
      @Advice.Enter Object decision,
      @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object response) {
    if (decision != null) {
      response = TollgateBridge.jaxrsResourceEnded(decision, response);
    }
  }
}
