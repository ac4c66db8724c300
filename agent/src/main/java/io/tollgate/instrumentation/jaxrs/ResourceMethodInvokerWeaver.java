package io.tollgate.instrumentation.jaxrs;

import io.tollgate.instrumentation.MethodWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into Jersey's {@code ResourceMethodInvoker.apply(RequestProcessingContext)}, which invokes
 * the matched resource method and returns Jersey's {@code ContainerResponse}. As Java:
 *
 * <pre>{@code
 * Object decision = TollgateBridge.jaxrsResourceStarted(context);
 * if (decision instanceof Refusal) {
 *   return (ContainerResponse) TollgateBridge.jaxrsResourceEnded(decision, null);   // the 429
 * }
 * ...the method's own code, each {@code return response} becoming:
 * return (ContainerResponse) TollgateBridge.jaxrsResourceEnded(decision, response);
 * }</pre>
 *
 * <p>Here the route template is known, and nothing has been suspended yet: a refused request skips
 * the whole invocation, asynchronous resource methods included, and the 429 becomes the returned
 * response. No exception is involved, so no {@code ExceptionMapper} can rewrite it, and Jersey
 * writes it (with its response filters) like any other, with or without a servlet container.
 */
final class ResourceMethodInvokerWeaver extends MethodWeaver {

  private static final String ENDED = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

  /** Created by {@code EntryPointMethod}, by reflection. */
  private ResourceMethodInvokerWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, false);
  }

  @Override
  protected void atStart() {
    loadArgument(0);
    callBridge("jaxrsResourceStarted", "(Ljava/lang/Object;)Ljava/lang/Object;");
    storeScope();
    loadScope();
    whenRefused();
    loadScope();
    insn(Opcodes.ACONST_NULL);
    callBridge("jaxrsResourceEnded", ENDED);
    castToReturnType();
    insn(Opcodes.ARETURN);
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    // the response is on the stack: (decision, response) for the bridge, its answer returned
    loadScope();
    insn(Opcodes.SWAP);
    callBridge("jaxrsResourceEnded", ENDED);
    castToReturnType();
  }
}
