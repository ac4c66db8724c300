package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.instrumentation.WovenMethod;
import io.tollgate.instrumentation.outbound.OutboundSendWeaver;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into the request channel of the async client's {@code doExecute}: the start passes the
 * call's response consumer (the key its answer is found by, and told of a refusal) and the
 * request. A refusal is thrown as the channel's {@code IOException}, which {@code doExecute} gives
 * the future (and so the app's callback) as the call's failure.
 */
final class Apache5AsyncSendWeaver extends OutboundSendWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private Apache5AsyncSendWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method);
  }

  @Override
  protected void enter() {
    callEnter(5, 6);
  }
}
