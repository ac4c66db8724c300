package io.tollgate.instrumentation.servlet;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action once when an asynchronous servlet request ends (completes, fails or times out):
 * a concurrency limit must hold its permit until then, not until {@code service} returns.
 *
 * <p>The application's {@code AsyncListener} interface is implemented with a JDK proxy in its own
 * class loader, since the agent cannot compile against it.
 */
final class AsyncCompletion implements InvocationHandler {

  private final Runnable action;
  private final Runnable failed;
  private final AtomicBoolean done = new AtomicBoolean();
  private Object self;

  private AsyncCompletion(Runnable action, Runnable failed) {
    this.action = action;
    this.failed = failed;
  }

  /**
   * Runs {@code action} once when the request ends; on an error or a timeout, {@code failed}
   * first.
   */
  static void register(Object request, String namespace, Runnable action, Runnable failed)
      throws Exception {
    ClassLoader loader = request.getClass().getClassLoader();
    Class<?> listenerType = Class.forName(namespace + ".AsyncListener", false, loader);
    Object asyncContext = publicMethod(request, "getAsyncContext").invoke(request);
    AsyncCompletion handler = new AsyncCompletion(action, failed);
    Object listener =
        Proxy.newProxyInstance(listenerType.getClassLoader(), new Class<?>[] {listenerType}, handler);
    handler.self = listener;
    Class<?> contextType = Class.forName(namespace + ".AsyncContext", false, loader);
    contextType.getMethod("addListener", listenerType).invoke(asyncContext, listener);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "onComplete":
      case "onError":
      case "onTimeout":
        if (done.compareAndSet(false, true)) {
          if (!method.getName().equals("onComplete")) {
            failed.run();
          }
          action.run();
        }
        return null;
      case "onStartAsync":
        // A new startAsync drops listeners: stay registered on the new context.
        Object event = args[0];
        Object context = publicMethod(event, "getAsyncContext").invoke(event);
        for (Method add : context.getClass().getMethods()) {
          if (add.getName().equals("addListener") && add.getParameterCount() == 1) {
            add.invoke(context, self);
            break;
          }
        }
        return null;
      case "hashCode":
        return System.identityHashCode(proxy);
      case "equals":
        return proxy == args[0];
      case "toString":
        return "Tollgate release on completion";
      default:
        return null;
    }
  }

  private static Method publicMethod(Object target, String name) throws NoSuchMethodException {
    for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
      for (Class<?> iface : type.getInterfaces()) {
        try {
          return iface.getMethod(name);
        } catch (NoSuchMethodException notHere) {
          // Keep looking.
        }
      }
    }
    return target.getClass().getMethod(name);
  }
}
