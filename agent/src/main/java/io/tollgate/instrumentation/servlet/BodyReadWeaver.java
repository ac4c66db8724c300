package io.tollgate.instrumentation.servlet;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into the container request's parameter and body readers ({@link BodyReadEntryPoints});
 * as Java, the method becomes:
 *
 * <pre>{@code
 * TollgateBridge.bodyRead(BODY_READ, this, "parsed");   // "raw": getInputStream/getReader,
 *                                                      // "parts": getPart/getParts
 * ...the method's own code
 * }</pre>
 *
 * <p>The call returns at once unless the request has rules waiting for a form field; it throws
 * only to refuse the request, its response written ({@code RefusedWhileReading}).
 */
final class BodyReadWeaver extends EntryPointWeaver {

  private static final String BODY_READ = "(ILjava/lang/Object;Ljava/lang/Object;)V";

  /** Created by {@code EntryPointMethod}, by reflection. */
  private BodyReadWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, false, false);
  }

  @Override
  protected void atStart() {
    loadEntryPoint();
    visitVarInsn(Opcodes.ALOAD, 0);
    visitLdcInsn(BodyReadEntryPoints.howItReads(method.descriptor()));
    callBridge("bodyRead", BODY_READ);
    originalCodeStarts();
  }
}
