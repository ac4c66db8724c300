package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into {@code Servlet.service(request, response)} and {@code Filter.doFilter(request,
 * response, chain)}, in both namespaces; as Java, the method becomes:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.enter(SERVLET, request, response);
 * if (scope instanceof Refusal) return;          // refused: the 429 is written already
 * try {
 *   ...the method's own code, with before each return:
 *   TollgateBridge.exit(SERVLET, scope, null);
 * } catch (Throwable t) {                        // after the method's own handlers
 *   TollgateBridge.exit(SERVLET, scope, t);
 *   if (TollgateBridge.swallows(scope, t)) return; // refused as the app read its body: done
 *                                                  // (at the first entry point it unwinds to)
 *   throw t;
 * }
 * }</pre>
 *
 * <p>({@code SERVLET} is the servlet module's number.) The engine decides once per request, at the first of these methods the request reaches in
 * its original dispatch; at every other it answers null at once.
 */
final class ServletRequestWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private ServletRequestWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, true);
  }

  @Override
  protected void atStart() {
    callEnter(0, 1);
    storeScope();
    loadScope();
    whenRefused();
    insn(Opcodes.RETURN);
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    callExitOnReturn();
  }

  @Override
  protected void beforeThrow() {
    callExitOnThrow();
    returnWhenSwallowed();
  }
}
