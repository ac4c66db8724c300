package io.tollgate.instrumentation.servlet;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/**
 * Servlet API objects answered by a handler, for the unit tests that count what an entry point
 * asks of a request (the real containers run in the integration tests). Identity ({@code
 * hashCode}, {@code equals}) is the proxy's own; every other call goes to the handler, whose
 * unanswered methods return {@link #nothing}.
 */
final class ServletFakes {

  private ServletFakes() {}

  static <T> T of(Class<T> type, InvocationHandler answers) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "hashCode": return System.identityHashCode(proxy);
            case "equals": return proxy == args[0];
            default: return answers.invoke(proxy, method, args);
          }
        }));
  }

  /** What a method that the fake does not answer returns. */
  static Object nothing(Class<?> type) {
    if (type == boolean.class) {
      return Boolean.FALSE;
    }
    if (type == int.class) {
      return Integer.valueOf(0);
    }
    return type == long.class ? (Object) Long.valueOf(0) : null;
  }
}
