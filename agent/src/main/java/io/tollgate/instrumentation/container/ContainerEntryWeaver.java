package io.tollgate.instrumentation.container;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into a container's request entry, a {@code void} method taking the container's request
 * and response (Tomcat's {@code StandardHostValve.invoke(Request, Response)}) or the one object
 * that holds both (Jetty's {@code Server.handle(HttpChannel)}). As Java:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.enter(MODULE, first, second or null);
 * if (scope instanceof Refusal) return;          // refused: the 429 is written already
 * try { ...the method's own code... }
 * finally { TollgateBridge.exit(MODULE, scope, thrown or null); }
 * // and when the exception is the refusal thrown as the application read its body
 * // (TollgateBridge.swallows(scope, thrown)): return normally, the 429 written
 * }</pre>
 */
public final class ContainerEntryWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private ContainerEntryWeaver(MethodVisitor target, WovenMethod method) {
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
