package io.tollgate.instrumentation.spring;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into Spring MVC's {@code HandlerAdapter.handle(request, response, handler)}: the handler
 * is chosen and the route template is in the request, so rules on routes are decided here. As
 * Java, the method begins with:
 *
 * <pre>{@code
 * if (TollgateBridge.enter(SPRING_MVC, request, response) instanceof Refusal) {
 *   return null;   // the 429 is written; a null ModelAndView tells DispatcherServlet it is handled
 * }
 * }</pre>
 */
final class HandlerAdapterWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private HandlerAdapterWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, false, false);
  }

  @Override
  protected void atStart() {
    callEnter(0, 1);
    whenRefused();
    insn(Opcodes.ACONST_NULL);
    insn(Opcodes.ARETURN);
    originalCodeStarts();
  }
}
