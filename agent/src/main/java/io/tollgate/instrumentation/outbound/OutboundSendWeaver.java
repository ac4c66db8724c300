package io.tollgate.instrumentation.outbound;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into an HTTP client's own send: the one method every call of the app goes through once
 * (Apache HttpClient's {@code doExecute}, OkHttp's {@code RealCall.getResponseWithInterceptorChain}),
 * which returns the partner's response. Each client's weaver says only what the start passes. As
 * Java:
 *
 * <pre>{@code
 * Object scope = TollgateBridge.enter(MODULE, a, b);       // may pace: waits its turn here
 * if (scope instanceof Refusal) {
 *   throw (Throwable) TollgateBridge.returned(MODULE, scope, null);   // the IOException naming the rule
 * }
 * ...the method's own code, each {@code return response} becoming:
 * return (Response) TollgateBridge.returned(MODULE, scope, response);  // the partner's answer is learnt
 * }</pre>
 *
 * <p>A refused call fails as the client fails when the partner cannot be reached: with an {@code
 * IOException} out of the send, which the client hands the app as it does its own (thrown by a
 * synchronous call, given to OkHttp's {@code Callback.onFailure} by an enqueued one). The sends
 * woven declare {@code IOException}, and the bridge's refusal always carries one.
 */
public abstract class OutboundSendWeaver extends EntryPointWeaver {

  private static final String RETURNED =
      "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

  protected OutboundSendWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, true, false);
  }

  /** Calls {@code TollgateBridge.enter} with what the client's handler reads the call from. */
  protected abstract void enter();

  @Override
  protected final void atStart() {
    enter();
    storeScope();
    loadScope();
    whenRefused();
    loadEntryPoint();
    loadScope();
    insn(Opcodes.ACONST_NULL);
    callBridge("returned", RETURNED);
    visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Throwable");
    insn(Opcodes.ATHROW);
    originalCodeStarts();
  }

  @Override
  protected final void beforeReturn(int opcode) {
    if (opcode == Opcodes.ARETURN) {
      // the partner's response is on the stack: handed to the bridge, and returned as it is
      callReturned();
    }
  }
}
