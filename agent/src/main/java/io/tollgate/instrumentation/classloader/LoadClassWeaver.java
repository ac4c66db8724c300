package io.tollgate.instrumentation.classloader;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Woven into a class loader's {@code loadClass(String)} or {@code loadClass(String, boolean)}: a
 * name in one of the agent's bootstrap packages is answered by the bootstrap loader, before the
 * loader's own code runs. As Java, the method begins with:
 *
 * <pre>{@code
 * if (name != null && name.startsWith("io.tollgate.bootstrap.")) {
 *   try {
 *     return Class.forName(name, false, null);    // the bootstrap loader
 *   } catch (Exception notThere) {
 *     // the loader's own code decides, as if the agent were absent
 *   }
 * }
 * }</pre>
 *
 * <p>The code calls only the JDK ({@code String}, {@code Class}), so it works in any class loader,
 * whatever that loader itself can see. It adds no member and changes no signature, so the JVM can
 * retransform loader classes loaded long before {@code attach}. For every other name it costs one
 * {@code startsWith}.
 */
final class LoadClassWeaver extends MethodVisitor {

  /** What the prologue pushes at most: the name, {@code false} and {@code null}. */
  private static final int EXTRA_STACK = 3;

  private final String owner;
  private final String descriptor;
  private final String prefix;
  private final boolean frames;

  /**
   * @param owner the internal name of the class loader class
   * @param descriptor the woven method's descriptor (its first argument is the name)
   * @param prefix names starting with it are answered by the bootstrap loader
   * @param classVersion the class file's major version: below 50 (Java 6) it has no frames
   */
  LoadClassWeaver(MethodVisitor target, String owner, String descriptor, String prefix,
      int classVersion) {
    super(Opcodes.ASM9, target);
    this.owner = owner;
    this.descriptor = descriptor;
    this.prefix = prefix;
    this.frames = classVersion >= Opcodes.V1_6;
  }

  @Override
  public void visitCode() {
    super.visitCode();
    Label tryStart = new Label();
    Label tryEnd = new Label();
    Label notThere = new Label();
    Label originalCode = new Label();
    // Visited before the method's own handlers (ClassReader visits them after visitCode): this
    // range covers only the code below.
    super.visitTryCatchBlock(tryStart, tryEnd, notThere, "java/lang/Exception");

    super.visitVarInsn(Opcodes.ALOAD, 1);
    super.visitJumpInsn(Opcodes.IFNULL, originalCode);
    super.visitVarInsn(Opcodes.ALOAD, 1);
    super.visitLdcInsn(prefix);
    super.visitMethodInsn(
        Opcodes.INVOKEVIRTUAL, "java/lang/String", "startsWith", "(Ljava/lang/String;)Z", false);
    super.visitJumpInsn(Opcodes.IFEQ, originalCode);
    super.visitLabel(tryStart);
    super.visitVarInsn(Opcodes.ALOAD, 1);
    super.visitInsn(Opcodes.ICONST_0);
    super.visitInsn(Opcodes.ACONST_NULL);
    super.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Class", "forName",
        "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;", false);
    super.visitLabel(tryEnd);
    super.visitInsn(Opcodes.ARETURN);

    super.visitLabel(notThere);
    frame(new Object[] {"java/lang/Exception"});
    super.visitInsn(Opcodes.POP);

    super.visitLabel(originalCode);
    frame(new Object[0]);
    // So that a frame the original code has at its first instruction (a loop's head) does not
    // fall on the same offset as the one above.
    super.visitInsn(Opcodes.NOP);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    super.visitMaxs(Math.max(maxStack, EXTRA_STACK), maxLocals);
  }

  /** A frame with the method's entry locals ({@code this}, the name and the flag if any). */
  private void frame(Object[] stack) {
    if (!frames) {
      return;
    }
    Type[] arguments = Type.getArgumentTypes(descriptor);
    Object[] locals = new Object[1 + arguments.length];
    locals[0] = owner;
    for (int i = 0; i < arguments.length; i++) {
      locals[i + 1] = arguments[i].getSort() == Type.BOOLEAN ? Opcodes.INTEGER
          : arguments[i].getInternalName();
    }
    super.visitFrame(Opcodes.F_NEW, locals.length, locals, stack.length, stack);
  }
}
