package io.tollgate.instrumentation;

import io.tollgate.bootstrap.InternalErrors;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.engine.TollgateGate;
import java.util.List;

/**
 * The agent's side of the bridge: hands each call of woven code to the handler of the module whose
 * entry point it is (the entry point's number is the module's position in the list
 * given). A failure is reported once a minute per kind and lets the request pass, as
 * the bridge would, but named after the framework.
 */
public final class EntryPointDispatch implements RequestGate {

  private final EntryPointHandler[] handlers;
  private final String[] deciding;
  private final String[] ending;

  public EntryPointDispatch(List<FrameworkModule> modules, TollgateGate engine) {
    handlers = new EntryPointHandler[modules.size()];
    deciding = new String[modules.size()];
    ending = new String[modules.size()];
    for (int i = 0; i < handlers.length; i++) {
      FrameworkModule module = modules.get(i);
      handlers[i] = module.handlerAtFirstCall()
          ? new HandlerAtFirstCall(module, engine)
          : module.handler(engine);
      deciding[i] = "deciding " + module.requestName();
      ending[i] = "ending " + module.requestName();
    }
  }

  @Override
  public Object enter(int entryPoint, Object first, Object second) {
    try {
      return handlers[entryPoint].enter(first, second);
    } catch (Throwable t) {
      InternalErrors.report(deciding[entryPoint], t);
      return null;
    }
  }

  @Override
  public void exit(int entryPoint, Object scope, Throwable thrown) {
    try {
      handlers[entryPoint].exit(scope, thrown);
    } catch (Throwable t) {
      InternalErrors.report(ending[entryPoint], t);
    }
  }

  @Override
  public Object returned(int entryPoint, Object scope, Object result) {
    try {
      return handlers[entryPoint].returned(scope, result);
    } catch (Throwable t) {
      InternalErrors.report(ending[entryPoint], t);
      return result;
    }
  }
}
