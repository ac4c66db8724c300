package io.tollgate.instrumentation;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into a {@code void} entry point that takes the request first: {@code
 * Servlet.service(request, response)} and {@code Filter.doFilter(request, response, chain)} in
 * both namespaces, Tomcat's {@code StandardHostValve.invoke(Request, Response)}, and Jetty's
 * {@code Server.handle(HttpChannel)}, whose one argument holds both. As Java, the method becomes:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.enter(MODULE, request, response or null);
 * if (scope instanceof Refusal) return;          // refused: the 429 is written already
 * try {
 *   ...the method's own code, with before each return:
 *   TollgateBridge.exit(MODULE, scope, null);
 * } catch (Throwable t) {                        // after the method's own handlers
 *   TollgateBridge.exit(MODULE, scope, t);
 *   if (TollgateBridge.swallows(scope, t)) return; // refused as the app read its body: done
 *                                                  // (at the first entry point it unwinds to)
 *   throw t;
 * }
 * }</pre>
 *
 * <p>({@code MODULE} is the woven module's number.) The engine decides once per request, at the
 * first of these methods the request reaches in its original dispatch; at every other it answers
 * null at once.
 */
public final class RequestEntryWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private RequestEntryWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, true);
  }

  @Override
  protected void atStart() {
    callEnter(0, method.argumentCount() > 1 ? 1 : -1);
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
    returnWhenSwallowed(); // a refusal thrown into the application's read of its body
  }
}
