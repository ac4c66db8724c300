package io.tollgate.instrumentation.jaxrs.cxf;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into CXF's {@code JAXRSInvoker.invoke(exchange, request)}, which invokes the matched
 * resource method and returns its response (in a {@code MessageContentsList}). As Java, the
 * method begins with:
 *
 * <pre>{@code
 * Object decision = TollgateBridge.enter(CXF, exchange, null);
 * if (decision instanceof Refusal) {
 *   return TollgateBridge.returned(CXF, decision, null);   // the 429, as a MessageContentsList
 * }
 * }</pre>
 *
 * <p>The refusal is returned as the resource's response would be, so no {@code ExceptionMapper}
 * sees it, and nothing is suspended yet, so an asynchronous resource is skipped as a plain one is.
 */
final class JaxrsInvokerWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private JaxrsInvokerWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, false);
  }

  @Override
  protected void atStart() {
    callEnter(0, -1);
    storeScope();
    loadScope();
    whenRefused();
    insn(Opcodes.ACONST_NULL);
    callReturned();
    insn(Opcodes.ARETURN);
    originalCodeStarts();
  }
}
