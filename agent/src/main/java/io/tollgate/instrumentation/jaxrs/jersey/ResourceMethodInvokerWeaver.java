package io.tollgate.instrumentation.jaxrs.jersey;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into Jersey's {@code ResourceMethodInvoker.apply(RequestProcessingContext)}, which invokes
 * the matched resource method and returns Jersey's {@code ContainerResponse}. As Java:
 *
 * <pre>{@code
 * Object decision = TollgateBridge.enter(JERSEY, context, null);
 * if (decision instanceof Refusal) {
 *   return (ContainerResponse) TollgateBridge.returned(JERSEY, decision, null);   // the 429
 * }
 * ...the method's own code, each {@code return response} becoming:
 * return (ContainerResponse) TollgateBridge.returned(JERSEY, decision, response);
 * }</pre>
 *
 * <p>Here the route template is known, and nothing has been suspended yet: a refused request skips
 * the whole invocation, asynchronous resource methods included, and the 429 becomes the returned
 * response. No exception is involved, so no {@code ExceptionMapper} can rewrite it, and Jersey
 * writes it (with its response filters) like any other, with or without a servlet container.
 */
final class ResourceMethodInvokerWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private ResourceMethodInvokerWeaver(MethodVisitor target, WovenMethod method) {
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

  @Override
  protected void beforeReturn(int opcode) {
    // the response is on the stack: the bridge's answer is returned in its place
    callReturned();
  }
}
