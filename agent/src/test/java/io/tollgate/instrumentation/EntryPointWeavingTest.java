package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.instrumentation.samples.Events;
import io.tollgate.instrumentation.samples.JerseyResponses;
import io.tollgate.instrumentation.samples.NotEntryPoints;
import io.tollgate.instrumentation.samples.SampleHandlerAdapter;
import io.tollgate.instrumentation.samples.SampleServlet;
import io.tollgate.instrumentation.samples.TrickyFilter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer;
import org.glassfish.jersey.server.model.ResourceMethodInvoker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the woven entry points do, run for real: each sample class is woven, defined (so verified
 * by the JVM) and called, with a recording engine behind the bridge. The events are the engine's
 * calls and the method's own code, in order. Each table reads: what the engine answers at the
 * start, what the method's own code does, and what happened.
 */
class EntryPointWeavingTest {

  private static final Object SCOPE = "scope";
  private final RecordingGate gate = new RecordingGate();

  @BeforeEach
  void installGate() {
    Events.LOG.clear();
    TollgateBridge.install(gate);
  }

  @AfterEach
  void removeGate() {
    TollgateBridge.install(null);
    Events.script = "return";
  }

  @ParameterizedTest(name = "servlet: engine answers {0}, the method does \"{1}\"")
  @CsvSource(delimiter = '|', value = {
    "scope   | return       | started null null, body, body end, ended scope",
    "scope   | return early | started null null, body, ended scope",
    "scope   | throw        | started null null, body, ended scope IOException, threw IOException",
    "nothing | return       | started null null, body, body end",
    "refusal | return       | started null null",
    "failure | return       | started null null, body, body end",
  })
  void servletService(String answer, String script, String expected) throws Exception {
    assertCalls(answer, script, expected, SampleServlet.class, "service");
  }

  @ParameterizedTest(name = "servlet compiled for Java 5: engine answers {0}, the method does \"{1}\"")
  @CsvSource(delimiter = '|', value = {
    "scope   | return | started null null, body, body end, ended scope",
    "scope   | throw  | started null null, body, ended scope IOException, threw IOException",
    "refusal | return | started null null",
  })
  void servletWithoutStackMapFrames(String answer, String script, String expected)
      throws Exception {
    byte[] java5 = WovenClassLoader.asJava5(WovenClassLoader.classFile(SampleServlet.class.getName()));
    Class<?> woven = WovenClassLoader.woven(SampleServlet.class.getName(), java5);
    assertCalls(answer, script, expected, woven, "service");
  }

  @ParameterizedTest(name = "filter with loops, wide locals and inner handlers: {0}, \"{1}\"")
  @CsvSource(delimiter = '|', value = {
    "scope   | return      | started null null, finally, total 3, ended scope",
    "scope   | inner throw | started null null, caught 3 0.5, finally, ended scope",
    "scope   | throw       | started null null, finally, ended scope IllegalArgumentException,"
        + " threw IllegalArgumentException",
    "refusal | return      | started null null",
  })
  void filterDoFilter(String answer, String script, String expected) throws Exception {
    assertCalls(answer, script, expected, TrickyFilter.class, "doFilter");
  }

  @ParameterizedTest(name = "Spring MVC handle: engine answers {0}, the method does \"{1}\"")
  @CsvSource(delimiter = '|', value = {
    "nothing | return | started null null, body, returned view of handler",
    "refusal | return | started null null, returned null",
    "nothing | throw  | started null null, body, threw Exception",
    "failure | return | started null null, body, returned view of handler",
  })
  void springHandle(String answer, String script, String expected) throws Exception {
    assertCalls(answer, script, expected, SampleHandlerAdapter.class, "handle");
  }

  @ParameterizedTest(name = "Jersey apply: engine answers {0}, the method does \"{1}\"")
  @CsvSource(delimiter = '|', value = {
    "headers | return       | started null null, body, ended headers response, returned response",
    "headers | return early | started null null, body, ended headers early response, returned early response",
    "nothing | return       | started null null, body, returned response",
    "refusal | return       | started null null, returned the 429",
    "headers | throw        | started null null, body, threw IllegalStateException",
  })
  void jerseyApply(String answer, String script, String expected) throws Exception {
    assertCalls(answer, script, expected, ResourceMethodInvoker.class, "apply");
  }

  @ParameterizedTest(name = "Grizzly service: the method does \"{0}\"")
  @CsvSource(delimiter = '|', value = {
    "return | started null null, body, ended scope",
    "throw  | started null null, body, ended scope IllegalStateException, threw IllegalStateException",
  })
  void grizzlyService(String script, String expected) throws Exception {
    assertCalls("scope", script, expected, GrizzlyHttpContainer.class, "service");
  }

  @Test
  void methodsThatOnlyLookLikeEntryPointsAreLeftAlone() throws Exception {
    assertNull(weave(NotEntryPoints.class));
    assertNull(weave(jakarta.servlet.Servlet.class), "interfaces");
    assertNull(weave(jakarta.servlet.GenericServlet.class), "its service is abstract");
    assertNull(weave(String.class));
  }

  @Test
  void theServletApisOwnClassesWeaveAndVerify() throws Exception {
    for (Class<?> type : Arrays.asList(jakarta.servlet.http.HttpServlet.class,
        jakarta.servlet.http.HttpFilter.class, javax.servlet.http.HttpServlet.class,
        javax.servlet.http.HttpFilter.class)) {
      WovenClassLoader.woven(type); // throws VerifyError if a frame is wrong
    }
  }

  private static EntryPointWeaving.WovenClass weave(Class<?> type) throws Exception {
    return AllEntryPoints.WEAVING.weave(WovenClassLoader.classFile(type.getName()));
  }

  private void assertCalls(String answer, String script, String expected, Class<?> sample,
      String methodName) throws Exception {
    Class<?> woven =
        sample.getClassLoader() instanceof WovenClassLoader ? sample : WovenClassLoader.woven(sample);
    switch (answer) {
      case "scope":
        gate.answer = SCOPE;
        break;
      case "headers":
        gate.answer = "headers";
        break;
      case "refusal":
        gate.answer = woven.getSimpleName().equals("ResourceMethodInvoker")
            ? Refusal.returning(JerseyResponses.of("the 429"))
            : Refusal.WRITTEN;
        break;
      case "failure":
        gate.failure = new IllegalStateException("the engine failed");
        break;
      default:
        gate.answer = null;
    }
    Events.script = script;
    Method method = methodNamed(woven, methodName);
    Object[] arguments = new Object[method.getParameterCount()];
    if (methodName.equals("handle")) {
      arguments[2] = "handler";
    }
    Object instance = woven.getDeclaredConstructor().newInstance();
    try {
      Object returned = method.invoke(instance, arguments);
      if (method.getReturnType() != void.class) {
        Events.add("returned " + JerseyResponses.describe(returned));
      }
    } catch (InvocationTargetException e) {
      if (!script.contains("throw")) {
        throw e;
      }
      Events.add("threw " + e.getCause().getClass().getSimpleName());
    }
    assertEquals(List.of(expected.split(", ")), Events.LOG);
    int module = moduleOf(woven);
    for (int entryPoint : gate.entryPoints) {
      assertEquals(module, entryPoint, "the entry point's number is its module's position");
    }
  }

  /** The position in {@code FrameworkModules} of the module that weaves {@code woven}. */
  private static int moduleOf(Class<?> woven) {
    switch (woven.getSimpleName()) {
      case "SampleHandlerAdapter":
        return 1;
      case "ResourceMethodInvoker":
        return 2;
      case "GrizzlyHttpContainer":
        return 3;
      default:
        return 0;
    }
  }

  private static Method methodNamed(Class<?> type, String name) {
    for (Method method : type.getDeclaredMethods()) {
      if (method.getName().equals(name) && !method.isBridge()) {
        return method;
      }
    }
    throw new AssertionError(type + " has no " + name);
  }
}
