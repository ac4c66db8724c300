package io.tollgate.instrumentation.outbound.apache4;

import io.tollgate.instrumentation.WovenMethod;
import io.tollgate.instrumentation.outbound.OutboundSendWeaver;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into Apache HttpClient 4's {@code doExecute(HttpHost target, HttpRequest request,
 * HttpContext context)}, which every {@code execute} overload of the client ends in, once per call
 * (retries and redirects happen below it): the start passes the target and the request.
 */
final class Apache4ExecuteWeaver extends OutboundSendWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private Apache4ExecuteWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method);
  }

  @Override
  protected void enter() {
    callEnter(0, 1);
  }
}
