package io.tollgate.instrumentation.outbound;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into a client's method that sends a call (or starts to), with {@code this} and the
 * method's first argument, if any, and a word saying which method it is ({@code what}). As Java:
 *
 * <pre>{@code
 * Object decision = TollgateBridge.enterIfStarted(MODULE, this or request, "what");
 * if (decision instanceof Refusal) {
 *   // throwing: the client's IOException subclass, OutboundCallRefused
 *   throw (Throwable) TollgateBridge.returned(MODULE, decision, null);
 *   // returning: what the method returns in its place (a failed future)
 *   return (T) TollgateBridge.returned(MODULE, decision, null);
 * }
 * ...the method's own code; with readsResult, each {@code return r} becoming
 * return (T) TollgateBridge.returned(MODULE, decision, r);
 * and with endsOnThrow, an exception thrown out of it passed to TollgateBridge.exit first
 * }</pre>
 *
 * <p>The bridge never throws: whatever fails in the agent, the call goes out as it would without it;
 * and a call made while the agent starts goes out at once, not held until it is ready.
 */
public abstract class OutboundCallWeaver extends EntryPointWeaver {

  private static final String ENTER = "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String RETURNED =
      "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

  private final String what;
  private final boolean passesThis;
  private final boolean throwsOnRefusal;
  private final boolean readsResult;
  private final boolean endsOnThrow;

  /**
   * @param what passed to the handler as the second object: which of the client's methods it is
   * @param passesThis whether the first object is {@code this} (else the first argument)
   * @param throwsOnRefusal whether a refusal is thrown (else returned)
   * @param readsResult whether each return passes its value through the handler
   * @param endsOnThrow whether an exception out of the method is shown to the handler
   */
  protected OutboundCallWeaver(MethodVisitor target, WovenMethod method, String what,
      boolean passesThis, boolean throwsOnRefusal, boolean readsResult, boolean endsOnThrow) {
    super(target, method, true, endsOnThrow);
    this.what = what;
    this.passesThis = passesThis;
    this.throwsOnRefusal = throwsOnRefusal;
    this.readsResult = readsResult;
    this.endsOnThrow = endsOnThrow;
  }

  @Override
  protected void atStart() {
    loadEntryPoint();
    if (passesThis) {
      visitVarInsn(Opcodes.ALOAD, 0);
    } else {
      loadArgument(0);
    }
    visitLdcInsn(what);
    callBridge("enterIfStarted", ENTER);
    storeScope();
    loadScope();
    whenRefused();
    loadEntryPoint();
    loadScope();
    insn(Opcodes.ACONST_NULL);
    callBridge("returned", RETURNED);
    if (throwsOnRefusal) {
      visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Throwable");
      insn(Opcodes.ATHROW);
    } else {
      castToReturnType();
      insn(Opcodes.ARETURN);
    }
    originalCodeStarts();
  }

  @Override
  protected void beforeReturn(int opcode) {
    if (readsResult && opcode == Opcodes.ARETURN) {
      callReturned();
    }
  }

  @Override
  protected void beforeThrow() {
    if (endsOnThrow) {
      callExitOnThrow();
    }
  }
}
