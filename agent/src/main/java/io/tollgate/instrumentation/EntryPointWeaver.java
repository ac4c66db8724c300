package io.tollgate.instrumentation;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * A {@link MethodWeaver} that calls the bridge's three generic methods for its entry point, whose
 * number (its module's) it pushes first: what every framework's weaver is written with.
 */
public abstract class EntryPointWeaver extends MethodWeaver {

  private static final String ENTER = "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
  private static final String EXIT = "(ILjava/lang/Object;Ljava/lang/Throwable;)V";
  private static final String RETURNED =
      "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

  private final boolean keepsScope;

  protected EntryPointWeaver(
      MethodVisitor target, WovenMethod method, boolean keepsScope, boolean endsOnThrow) {
    super(target, method, keepsScope, endsOnThrow);
    this.keepsScope = keepsScope;
  }

  /** Pushes the entry point's number. */
  protected final void loadEntryPoint() {
    int id = method.entryPoint;
    if (id <= 5) {
      insn(Opcodes.ICONST_0 + id);
    } else {
      visitIntInsn(Opcodes.BIPUSH, id);
    }
  }

  /**
   * {@code TollgateBridge.enter(entryPoint, a, b)}, its answer left on the stack: arguments
   * {@code first} and {@code second} (-1: null).
   */
  protected final void callEnter(int first, int second) {
    loadEntryPoint();
    loadArgumentOrNull(first);
    loadArgumentOrNull(second);
    callBridge("enter", ENTER);
  }

  /** {@code TollgateBridge.enter(entryPoint, this, argument)}, its answer left on the stack. */
  protected final void callEnterWithThis(int argument) {
    loadEntryPoint();
    visitVarInsn(Opcodes.ALOAD, 0);
    loadArgumentOrNull(argument);
    callBridge("enter", ENTER);
  }

  /** {@code TollgateBridge.exit(entryPoint, scope, null)}, before a return. */
  protected final void callExitOnReturn() {
    loadEntryPoint();
    loadScopeOrNull();
    insn(Opcodes.ACONST_NULL);
    callBridge("exit", EXIT);
  }

  /** {@code TollgateBridge.exit(entryPoint, scope, thrown)}, the exception staying on the stack. */
  protected final void callExitOnThrow() {
    insn(Opcodes.DUP); // thrown, thrown
    loadEntryPoint(); // thrown, thrown, id
    insn(Opcodes.SWAP); // thrown, id, thrown
    loadScopeOrNull(); // thrown, id, thrown, scope
    insn(Opcodes.SWAP); // thrown, id, scope, thrown
    callBridge("exit", EXIT);
  }

  /**
   * {@code TollgateBridge.returned(entryPoint, scope, result)} with the result on the stack,
   * replaced by the bridge's answer, cast to the method's return type.
   */
  protected final void callReturned() {
    loadEntryPoint(); // result, id
    insn(Opcodes.SWAP); // id, result
    loadScope(); // id, result, scope
    insn(Opcodes.SWAP); // id, scope, result
    callBridge("returned", RETURNED);
    castToReturnType();
  }

  private void loadArgumentOrNull(int index) {
    if (index < 0) {
      insn(Opcodes.ACONST_NULL);
    } else {
      loadArgument(index);
    }
  }

  private void loadScopeOrNull() {
    if (keepsScope) {
      loadScope();
    } else {
      insn(Opcodes.ACONST_NULL);
    }
  }
}
