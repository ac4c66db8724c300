package io.tollgate.instrumentation;

import io.tollgate.engine.TollgateGate;

/**
 * A module's handler made at the first call of its entry points ({@link
 * FrameworkModule#handlerAtFirstCall}), then called as the module's own. Made at most once: two
 * first calls at the same time make it under the lock, one of them.
 */
final class HandlerAtFirstCall implements EntryPointHandler {

  private final FrameworkModule module;
  private final TollgateGate engine;
  private volatile EntryPointHandler made;

  HandlerAtFirstCall(FrameworkModule module, TollgateGate engine) {
    this.module = module;
    this.engine = engine;
  }

  @Override
  public Object enter(Object first, Object second) throws Exception {
    return handler().enter(first, second);
  }

  @Override
  public void exit(Object scope, Throwable thrown) throws Exception {
    handler().exit(scope, thrown);
  }

  @Override
  public Object returned(Object scope, Object result) throws Exception {
    return handler().returned(scope, result);
  }

  /** The module's handler: made by the first call that needs it. */
  EntryPointHandler handler() {
    EntryPointHandler handler = made;
    if (handler == null) {
      synchronized (this) {
        handler = made;
        if (handler == null) {
          handler = module.handler(engine);
          made = handler;
        }
      }
    }
    return handler;
  }
}
