package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.instrumentation.EntryPointWeaver;
import io.tollgate.instrumentation.WovenMethod;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Woven into the start of {@code handleResponse(HttpResponse, EntityDetails)} of the async client's
 * exchange callback, on the I/O reactor thread: hands the bridge the call's response consumer
 * (the callback's captured {@code responseConsumer}) and the partner's response, and goes on. As
 * Java:
 *
 * <pre>{@code
 * TollgateBridge.returned(MODULE, this.val$responseConsumer, response);   // learnt; never waits
 * }</pre>
 */
final class Apache5AsyncAnswerWeaver extends EntryPointWeaver {

  private static final String RETURNED =
      "(ILjava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";

  /** Created by {@code EntryPointMethod}, by reflection. */
  private Apache5AsyncAnswerWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method, false, false);
  }

  @Override
  protected void atStart() {
    loadEntryPoint();
    visitVarInsn(Opcodes.ALOAD, 0);
    visitFieldInsn(Opcodes.GETFIELD, Apache5AsyncModule.EXCHANGE_CALLBACK.replace('.', '/'),
        "val$responseConsumer", "Lorg/apache/hc/core5/http/nio/AsyncResponseConsumer;");
    loadArgument(0);
    callBridge("returned", RETURNED);
    insn(Opcodes.POP);
    originalCodeStarts();
  }
}
