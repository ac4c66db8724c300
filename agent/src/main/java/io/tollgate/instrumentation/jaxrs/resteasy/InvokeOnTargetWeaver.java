package io.tollgate.instrumentation.jaxrs.resteasy;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into RESTEasy's {@code ResourceMethodInvoker.invokeOnTarget(request, response, target)},
 * which runs the post-matching request filters and then the resource method, and returns the
 * {@code BuiltResponse} to write (as a filter that aborts the request returns its own). As Java,
 * the method begins with:
 *
 * <pre>{@code
 * Object decision = TollgateBridge.enter(RESTEASY, this, request);
 * if (decision instanceof Refusal) {
 *   return (BuiltResponse) TollgateBridge.returned(RESTEASY, decision, null);   // the 429
 * }
 * }</pre>
 *
 * <p>The refusal is a response, not an exception, so no {@code ExceptionMapper} can rewrite it;
 * and nothing is suspended yet, so an asynchronous resource is skipped as a plain one is.
 */
final class InvokeOnTargetWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private InvokeOnTargetWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, false);
  }

  @Override
  protected void atStart() {
    callEnterWithThis(0);
    storeScope();
    loadScope();
    whenRefused();
    insn(Opcodes.ACONST_NULL);
    callReturned();
    insn(Opcodes.ARETURN);
    originalCodeStarts();
  }
}
