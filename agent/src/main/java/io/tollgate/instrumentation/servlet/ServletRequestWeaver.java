package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.MethodWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into {@code Servlet.service(request, response)} and {@code Filter.doFilter(request,
 * response, chain)}, in both namespaces; as Java, the method becomes:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.servletRequestStarted(request, response);
 * if (scope instanceof Refusal) return;          // refused: the 429 is written already
 * try {
 *   ...the method's own code, with before each return:
 *   TollgateBridge.servletRequestEnded(scope, null);
 * } catch (Throwable t) {                        // after the method's own handlers
 *   TollgateBridge.servletRequestEnded(scope, t);
 *   throw t;
 * }
 * }</pre>
 *
 * <p>The bridge decides once per request, at the first of these methods the request reaches in
 * its original dispatch; at every other it answers null at once.
 */
final class ServletRequestWeaver extends MethodWeaver {

  private static final String STARTED = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String ENDED = "(Ljava/lang/Object;Ljava/lang/Throwable;)V";

  /** Created by {@code EntryPointMethod}, by reflection. */
  private ServletRequestWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, true);
  }

  @Override
  protected void atStart() {
    loadArgument(0);
    loadArgument(1);
    callBridge("servletRequestStarted", STARTED);
    storeScope();
    loadScope();
    whenRefused();
    insn(Opcodes.RETURN);
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    loadScope();
    insn(Opcodes.ACONST_NULL);
    callBridge("servletRequestEnded", ENDED);
  }

  @Override
  protected void beforeThrow() {
    insn(Opcodes.DUP);
    loadScope();
    insn(Opcodes.SWAP);
    callBridge("servletRequestEnded", ENDED);
  }
}
