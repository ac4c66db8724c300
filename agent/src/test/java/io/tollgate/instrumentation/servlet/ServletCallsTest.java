package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated {@link ServletCalls}, for both servlet APIs: each of its methods calls the
 * servlet method this table names, on the object it is given, with the other arguments as given,
 * and returns what that returned. The request and response here record the calls they get (the
 * real containers are run with the agent in the integration tests); cookies are the API's own.
 */
class ServletCallsTest {

  private static final String TABLE_NAME = "{0}: {1} calls {2}.{3}";

  @ParameterizedTest(name = TABLE_NAME)
  @CsvSource(delimiter = '|', value = {
    "javax.servlet   | getMethod         | request  | getMethod",
    "javax.servlet   | getRequestURI     | request  | getRequestURI",
    "javax.servlet   | getRemoteAddr     | request  | getRemoteAddr",
    "javax.servlet   | getHeader         | request  | getHeader",
    "javax.servlet   | getHeaders        | request  | getHeaders",
    "javax.servlet   | getUserPrincipal  | request  | getUserPrincipal",
    "javax.servlet   | getParameter      | request  | getParameter",
    "javax.servlet   | getCookies        | request  | getCookies",
    "javax.servlet   | isAsyncStarted    | request  | isAsyncStarted",
    "javax.servlet   | getDispatcherType | request  | getDispatcherType",
    "javax.servlet   | getAttribute      | request  | getAttribute",
    "javax.servlet   | setAttribute      | request  | setAttribute",
    "javax.servlet   | getContextPath    | request  | getContextPath",
    "javax.servlet   | setHeader         | response | setHeader",
    "javax.servlet   | getResponseHeader | response | getHeader",
    "javax.servlet   | isCommitted       | response | isCommitted",
    "javax.servlet   | getStatus         | response | getStatus",
    "javax.servlet   | reset             | response | reset",
    "javax.servlet   | setStatus         | response | setStatus",
    "javax.servlet   | setContentType    | response | setContentType",
    "javax.servlet   | setContentLength  | response | setContentLength",
    "javax.servlet   | getOutputStream   | response | getOutputStream",
    "javax.servlet   | flushBuffer       | response | flushBuffer",
    "jakarta.servlet | getMethod         | request  | getMethod",
    "jakarta.servlet | getRemoteAddr     | request  | getRemoteAddr",
    "jakarta.servlet | getHeader         | request  | getHeader",
    "jakarta.servlet | getCookies        | request  | getCookies",
    "jakarta.servlet | getDispatcherType | request  | getDispatcherType",
    "jakarta.servlet | setAttribute      | request  | setAttribute",
    "jakarta.servlet | getResponseHeader | response | getHeader",
    "jakarta.servlet | setStatus         | response | setStatus",
    "jakarta.servlet | getStatus         | response | getStatus",
    "jakarta.servlet | getOutputStream   | response | getOutputStream",
    "jakarta.servlet | flushBuffer       | response | flushBuffer",
  })
  void eachCallReachesItsServletMethod(
      String namespace, String call, String target, String servletMethod) throws Exception {
    ServletCalls calls = ServletApi.callsFor(namespace, getClass().getClassLoader());
    Method method = callNamed(call);
    Class<?> servletType =
        Class.forName(
            namespace + (target.equals("request") ? ".http.HttpServletRequest"
                : ".http.HttpServletResponse"));
    Recorder recorder = new Recorder(namespace);
    Object on = Proxy.newProxyInstance(
        servletType.getClassLoader(), new Class<?>[] {servletType}, recorder);
    Object[] arguments = argumentsFor(method, on);

    Object answer = method.invoke(calls, arguments);

    assertEquals(
        List.of(servletMethod + Arrays.asList(arguments).subList(1, arguments.length)),
        recorder.calls);
    if (method.getReturnType().isPrimitive()) {
      assertEquals(recorder.answers.get(0), answer); // null for void
    } else {
      assertSame(recorder.answers.get(0), answer);
    }
  }

  @ParameterizedTest(name = "{0}: a cookie's name and value")
  @ValueSource(strings = {"javax.servlet", "jakarta.servlet"})
  void cookies(String namespace) throws Exception {
    ServletCalls calls = ServletApi.callsFor(namespace, getClass().getClassLoader());
    Object cookie =
        Class.forName(namespace + ".http.Cookie")
            .getConstructor(String.class, String.class)
            .newInstance("session", "s3cr3t");

    assertEquals("session", calls.getName(cookie));
    assertEquals("s3cr3t", calls.getValue(cookie));
  }

  @ParameterizedTest(name = "{0}: a class of its own, in a loader of its own")
  @ValueSource(strings = {"javax.servlet", "jakarta.servlet"})
  void generatedClass(String namespace) throws Exception {
    ServletCalls calls = ServletApi.callsFor(namespace, getClass().getClassLoader());
    Class<?> generated = calls.getClass();

    assertEquals(
        "io.tollgate.generated."
            + (namespace.equals("javax.servlet") ? "Javax" : "Jakarta") + "ServletCalls",
        generated.getName());
    assertNotSame(getClass().getClassLoader(), generated.getClassLoader());
    assertSame(getClass().getClassLoader(), generated.getClassLoader().getParent());
  }

  private static Method callNamed(String name) {
    for (Method method : ServletCalls.class.getMethods()) {
      if (method.getName().equals(name)) {
        return method;
      }
    }
    throw new AssertionError("no ServletCalls." + name);
  }

  private static Object[] argumentsFor(Method method, Object on) {
    Class<?>[] types = method.getParameterTypes();
    Object[] arguments = new Object[types.length];
    arguments[0] = on;
    for (int i = 1; i < types.length; i++) {
      arguments[i] = types[i] == int.class ? (Object) (40 + i) : "argument-" + i;
    }
    return arguments;
  }

  /** Records each call by name and arguments, and answers with a new value of its return type. */
  private static final class Recorder implements java.lang.reflect.InvocationHandler {
    final List<String> calls = new ArrayList<>();
    final List<Object> answers = new ArrayList<>();
    private final String namespace;

    Recorder(String namespace) {
      this.namespace = namespace;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Exception {
      calls.add(method.getName() + (args == null ? List.of() : Arrays.asList(args)));
      Object answer = answerOf(method.getReturnType());
      answers.add(answer);
      return answer;
    }

    private Object answerOf(Class<?> type) throws Exception {
      if (type == void.class) {
        return null;
      }
      if (type == boolean.class) {
        return Boolean.TRUE;
      }
      if (type == int.class) {
        return 401;
      }
      if (type == String.class) {
        return new String("answer");
      }
      if (type == java.util.Enumeration.class) {
        return Collections.enumeration(List.of("one", "two"));
      }
      if (type == java.security.Principal.class) {
        return (java.security.Principal) () -> "alice";
      }
      if (type == Object.class) {
        return new Object();
      }
      if (type.isArray()) {
        return java.lang.reflect.Array.newInstance(type.getComponentType(), 1);
      }
      if (type.isEnum()) {
        return type.getEnumConstants()[0];
      }
      if (type.getName().equals(namespace + ".ServletOutputStream")) {
        return null; // abstract; what matters is that the call is made and verified
      }
      throw new AssertionError("no answer of type " + type);
    }
  }
}
