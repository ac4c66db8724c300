package io.tollgate.instrumentation.jaxrs;

import io.tollgate.instrumentation.MethodWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into Jersey's {@code GrizzlyHttpContainer.service(Request, Response)}: Jersey's own
 * request object does not carry the client's socket address, Grizzly's does. It is noted for the
 * thread, which then runs the resource method. As Java:
 *
 * <pre>{@code
 * TollgateBridge.serverRequestStarted(request);
 * try { ...the method's own code... } finally { TollgateBridge.serverRequestEnded(); }
 * }</pre>
 */
final class GrizzlyContainerWeaver extends MethodWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private GrizzlyContainerWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, false, true);
  }

  @Override
  protected void atStart() {
    loadArgument(0);
    callBridge("serverRequestStarted", "(Ljava/lang/Object;)V");
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    callBridge("serverRequestEnded", "()V");
  }

  @Override
  protected void beforeThrow() {
    callBridge("serverRequestEnded", "()V");
  }
}
