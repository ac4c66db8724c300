package io.tollgate.instrumentation.grizzly;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into Jersey's {@code GrizzlyHttpContainer.service(Request, Response)}: Jersey's own
 * request object does not carry the client's socket address, Grizzly's does. It is noted for the
 * thread, which then runs the resource method. As Java:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.enter(GRIZZLY, request, null);
 * try { ...the method's own code... } finally { TollgateBridge.exit(GRIZZLY, scope, thrown or null); }
 * }</pre>
 */
final class GrizzlyContainerWeaver extends EntryPointWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private GrizzlyContainerWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, true);
  }

  @Override
  protected void atStart() {
    callEnter(0, -1);
    storeScope();
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    callExitOnReturn();
  }

  @Override
  protected void beforeThrow() {
    callExitOnThrow();
  }
}
