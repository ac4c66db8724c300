package io.tollgate.instrumentation.outbound.apache5;

import io.tollgate.instrumentation.WovenMethod;
import io.tollgate.instrumentation.outbound.OutboundSendWeaver;
import net.bytebuddy.jar.asm.MethodVisitor;

/**
 * Woven into Apache HttpClient 5's classic {@code doExecute(HttpHost target, ClassicHttpRequest
 * request, HttpContext context)}, which every {@code execute} overload of the client ends in, once
 * per call (the client's retries, of a 429 or 503 among others, and its redirects happen below
 * it): the start passes the target and the request.
 */
final class Apache5ExecuteWeaver extends OutboundSendWeaver {

  /** Created by {@code EntryPointMethod}, by reflection. */
  private Apache5ExecuteWeaver(MethodVisitor target, WovenMethod method) {
    super(target, method);
  }

  @Override
  protected void enter() {
    callEnter(0, 1);
  }
}
