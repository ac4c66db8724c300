package io.tollgate.instrumentation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves calls to {@code TollgateBridge} into one entry-point method, as it is copied from the
 * class file: code at its start, before each of its returns and, if wanted, before it ends by an
 * exception. Each entry point's weaver (a subclass, one per intercepted type) says what to call.
 *
 * <p>The woven code only calls the bridge, whose methods never throw, and acts on its answer; so
 * it cannot fail the application's method. It changes no class member (no field, no method, no
 * signature), so it works as well when {@code attach} retransforms classes loaded long before.
 *
 * <p>What makes this more than a few instructions is the JVM's verifier. The code at the start
 * may branch (to skip the method on a refusal), so the method's first original instruction gets
 * a stack map frame; a weaver that keeps a value for the end (the scope the start returned) puts
 * it in a new local variable slot after the method's own, and every frame of the original code is
 * given that slot too; and the exception handler that covers the whole original code gets its
 * own frame, in which nothing but that slot is live. Classes older than Java 6 have no frames,
 * and get none.
 */
public abstract class MethodWeaver extends MethodVisitor {

  private static final String BRIDGE = "io/tollgate/bootstrap/TollgateBridge";
  private static final String REFUSAL = "io/tollgate/bootstrap/Refusal";
  /** The most any weaver pushes on top of what the original code had on its operand stack. */
  private static final int EXTRA_STACK = 4;

  protected final WovenMethod method;
  private final boolean keepsScope;
  private final boolean endsOnThrow;
  private final boolean frames;
  /** The slot of the value kept from start to end, or -1 if the weaver keeps none. */
  private final int scopeSlot;
  private final Label originalCodeStart = new Label();
  private final Label originalCodeEnd = new Label();
  private final Label handler = new Label();

  /**
   * @param keepsScope whether the start's answer is kept for the end, in a slot of its own
   * @param endsOnThrow whether {@link #beforeThrow()} runs when the method ends by an exception
   */
  protected MethodWeaver(
      MethodVisitor target, WovenMethod method, boolean keepsScope, boolean endsOnThrow) {
    super(Opcodes.ASM9, target);
    this.method = method;
    this.keepsScope = keepsScope;
    this.endsOnThrow = endsOnThrow;
    this.frames = method.classVersion >= Opcodes.V1_6;
    this.scopeSlot = keepsScope ? method.maxLocals : -1;
  }

  /** The code that runs first. It must end with {@link #originalCodeStarts()}. */
  protected abstract void atStart();

  /** Code before an original {@code return} instruction ({@code opcode}), its value on the stack. */
  protected void beforeReturn(int opcode) {}

  /** Code before the method ends by an exception, which is on the stack and must stay there. */
  protected void beforeThrow() {}

  // --- what weavers emit with ---

  /** Pushes argument {@code index} (0 is the first after {@code this}). */
  protected final void loadArgument(int index) {
    Type[] arguments = Type.getArgumentTypes(method.descriptor);
    int slot = 1;
    for (int i = 0; i < index; i++) {
      slot += arguments[i].getSize();
    }
    super.visitVarInsn(arguments[index].getOpcode(Opcodes.ILOAD), slot);
  }

  protected final void callBridge(String name, String descriptor) {
    super.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, name, descriptor, false);
  }

  protected final void storeScope() {
    super.visitVarInsn(Opcodes.ASTORE, scopeSlot);
  }

  protected final void loadScope() {
    super.visitVarInsn(Opcodes.ALOAD, scopeSlot);
  }

  protected final void insn(int opcode) {
    super.visitInsn(opcode);
  }

  protected final void castToReturnType() {
    super.visitTypeInsn(Opcodes.CHECKCAST, method.returnTypeInternalName());
  }

  /**
   * Pops the value on the stack; when it is a {@code Refusal}, the code emitted next, up to
   * {@link #originalCodeStarts()}, runs instead of the method's own, and must return.
   */
  protected final void whenRefused() {
    super.visitTypeInsn(Opcodes.INSTANCEOF, REFUSAL);
    super.visitJumpInsn(Opcodes.IFEQ, originalCodeStart);
  }

  /**
   * In {@link #beforeThrow()} of a {@code void} method that keeps the scope: returns normally
   * instead of throwing when {@code TollgateBridge.swallows(scope, thrown)} says so (the request
   * was refused while the application read its body, its response complete, and this is the first
   * entry point the refusal unwinds to); otherwise
   * the exception stays on the stack, to be thrown.
   */
  protected final void returnWhenSwallowed() {
    Label rethrow = new Label();
    super.visitInsn(Opcodes.DUP); // thrown, thrown
    loadScope(); // thrown, thrown, scope
    super.visitInsn(Opcodes.SWAP); // thrown, scope, thrown
    callBridge("swallows", "(Ljava/lang/Object;Ljava/lang/Throwable;)Z"); // thrown, swallowed
    super.visitJumpInsn(Opcodes.IFEQ, rethrow); // thrown
    super.visitInsn(Opcodes.POP);
    super.visitInsn(Opcodes.RETURN); // not visitInsn: no exit before this return, it was called
    super.visitLabel(rethrow);
    if (frames) {
      Object[] locals = withScope(new Object[0]);
      super.visitFrame(
          Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
    }
  }

  /** Marks where the method's own code begins (where {@link #whenRefused()} jumps otherwise). */
  protected final void originalCodeStarts() {
    super.visitLabel(originalCodeStart);
    if (frames) {
      Object[] locals = withScope(entryLocals());
      super.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
    }
    // So that a frame the original code has at its first instruction (a loop's head) does not
    // fall on the same offset as the one above.
    super.visitInsn(Opcodes.NOP);
  }

  // --- the copy of the original code ---

  @Override
  public void visitCode() {
    super.visitCode();
    atStart();
  }

  @Override
  public void visitInsn(int opcode) {
    if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
      beforeReturn(opcode);
    }
    super.visitInsn(opcode);
  }

  @Override
  public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
    if (!keepsScope) {
      super.visitFrame(type, numLocal, local, numStack, stack);
      return;
    }
    // ClassReader.EXPAND_FRAMES: every frame arrives as F_NEW, with all its locals
    Object[] locals = withScope(Arrays.copyOf(local, numLocal));
    super.visitFrame(Opcodes.F_NEW, locals.length, locals, numStack, stack);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    if (endsOnThrow) {
      super.visitLabel(originalCodeEnd);
      super.visitLabel(handler);
      if (frames) {
        Object[] locals = withScope(new Object[0]);
        super.visitFrame(
            Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
      }
      beforeThrow();
      super.visitInsn(Opcodes.ATHROW);
      // Visited last, so it comes after the method's own handlers: it sees only what they let out.
      super.visitTryCatchBlock(originalCodeStart, originalCodeEnd, handler, null);
    }
    super.visitMaxs(maxStack + EXTRA_STACK, Math.max(maxLocals, scopeSlot + 1));
  }

  // --- frames ---

  /** The locals on entry: {@code this} and the arguments, in stack map frame notation. */
  private Object[] entryLocals() {
    List<Object> locals = new ArrayList<>();
    locals.add(method.owner);
    for (Type argument : Type.getArgumentTypes(method.descriptor)) {
      locals.add(frameType(argument));
    }
    return locals.toArray();
  }

  /** {@code locals} with the scope's slot added after them (unused slots before it as TOP). */
  private Object[] withScope(Object[] locals) {
    if (!keepsScope) {
      return locals;
    }
    List<Object> result = new ArrayList<>(Arrays.asList(locals));
    int slots = 0;
    for (Object local : locals) {
      slots += local == Opcodes.LONG || local == Opcodes.DOUBLE ? 2 : 1;
    }
    for (; slots < scopeSlot; slots++) {
      result.add(Opcodes.TOP);
    }
    result.add("java/lang/Object");
    return result.toArray();
  }

  private static Object frameType(Type type) {
    switch (type.getSort()) {
      case Type.BOOLEAN:
      case Type.CHAR:
      case Type.BYTE:
      case Type.SHORT:
      case Type.INT:
        return Opcodes.INTEGER;
      case Type.FLOAT:
        return Opcodes.FLOAT;
      case Type.LONG:
        return Opcodes.LONG;
      case Type.DOUBLE:
        return Opcodes.DOUBLE;
      case Type.ARRAY:
        return type.getDescriptor();
      default:
        return type.getInternalName();
    }
  }
}
