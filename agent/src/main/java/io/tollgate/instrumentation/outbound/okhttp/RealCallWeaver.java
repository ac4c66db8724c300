package io.tollgate.instrumentation.outbound.okhttp;

import io.tollgate.instrumentation.WovenMethod;
import io.tollgate.instrumentation.outbound.OutboundSendWeaver;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into OkHttp's {@code RealCall.getResponseWithInterceptorChain()}, which runs once per call
 * whether the app executes it or enqueues it (then on the dispatcher's thread), with the whole
 * interceptor chain below it: the app's interceptors, the retries and redirects, the network. The
 * start passes the call.
 */
final class RealCallWeaver extends OutboundSendWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private RealCallWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method);
  }

  @Override
  protected void enter() {
    callEnterWithThis(-1);
  }
}
