package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The status a servlet request ended with, as {@code count-when} reads it: the response's own,
 * unless an exception escaped the application before anything was committed, when the container
 * answers 500.
 */
class ServletExchangeStatusTest {

  @ParameterizedTest(name = "{0}: status set {1}, committed {2}, exception escaped {3}: {4}")
  @CsvSource(delimiter = '|', value = {
    "jakarta.servlet | 200 | false | false | 200",
    "jakarta.servlet | 401 | false | false | 401",
    "jakarta.servlet | 401 | true  | false | 401",
    "jakarta.servlet | 200 | false | true  | 500",
    "jakarta.servlet | 401 | false | true  | 500",
    "jakarta.servlet | 200 | true  | true  | 200",
    "javax.servlet   | 403 | false | false | 403",
    "javax.servlet   | 200 | false | true  | 500",
    "javax.servlet   | 302 | true  | true  | 302",
  })
  void theStatusTheClientGets(
      String namespace, int status, boolean committed, boolean uncaught, int expected)
      throws Exception {
    Object requestDispatch = null;
    for (Object type : Class.forName(namespace + ".DispatcherType").getEnumConstants()) {
      if (type.toString().equals("REQUEST")) {
        requestDispatch = type;
      }
    }
    Object request =
        proxy(namespace + ".http.HttpServletRequest", Map.of("getDispatcherType", requestDispatch));
    Map<String, Object> answers = new HashMap<>();
    answers.put("getStatus", status);
    answers.put("isCommitted", committed);
    Object response = proxy(namespace + ".http.HttpServletResponse", answers);
    ServletExchange exchange = ServletExchange.firstTimeMarked(request, response, "mark");
    assertEquals(expected, exchange.responseStatus(uncaught));
  }

  /** An instance of the servlet interface that answers {@code answers}, or null (false, 0). */
  private static Object proxy(String type, Map<String, Object> answers) throws Exception {
    Class<?> iface = Class.forName(type);
    return Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface},
        (Object p, Method m, Object[] args) -> {
          if (answers.containsKey(m.getName())) {
            return answers.get(m.getName());
          }
          Class<?> r = m.getReturnType();
          return r == boolean.class ? Boolean.FALSE : r == int.class ? 0 : null;
        });
  }
}
