package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A framework's API is looked for once per class, whatever the outcome: a match is kept, and so is
 * a failed match (logged once, answered as null after), so that no request redoes the reflection
 * and class generation that failed.
 */
class ApiPerClassTest {

  @ParameterizedTest(name = "match {0}: answer {1}, {2} warning(s) over 5 requests")
  @CsvSource({
    // match does        answers  warnings
    "finds the API,      api,     0",
    "finds none,         null,    0", // not this framework's class: nothing to say
    "throws reflective,  null,    1",
    "throws linkage,     null,    1",
    "throws runtime,     null,    1",
  })
  void looksOncePerClass(String matchDoes, String answers, int warnings) {
    Object api = new Object();
    AtomicInteger calls = new AtomicInteger();
    ApiPerClass<Object> perClass =
        new ApiPerClass<Object>("a framework") {
          @Override
          protected Object match(Class<?> type) throws ReflectiveOperationException {
            calls.incrementAndGet();
            switch (matchDoes) {
              case "finds the API":
                return api;
              case "finds none":
                return null;
              case "throws reflective":
                throw new NoSuchMethodException("Request.getRemoteAddr()");
              case "throws linkage":
                throw new NoClassDefFoundError("org/example/Request");
              default:
                throw new IllegalStateException("unexpected version");
            }
          }
        };
    PrintStream err = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try {
      for (int request = 0; request < 5; request++) {
        Object answer = perClass.get(String.class);
        if (answers.equals("api")) {
          assertSame(api, answer);
        } else {
          assertNull(answer);
        }
      }
    } finally {
      System.setErr(err);
    }
    assertEquals(1, calls.get(), "looked for once");
    String text = log.toString(StandardCharsets.UTF_8);
    assertEquals(warnings, text.split("cannot use a framework", -1).length - 1, text);
  }

  /** Each class's API is its own name here, so that an answer shows which class it was for. */
  private static ApiPerClass<Object> namesOfClasses(AtomicInteger calls) {
    return new ApiPerClass<Object>("a framework") {
      @Override
      protected Object match(Class<?> type) {
        calls.incrementAndGet();
        return type == Void.class ? null : type.getName();
      }
    };
  }

  @ParameterizedTest(name = "classes asked in the order {0}")
  @CsvSource({
    "String",
    "String Integer String Integer",
    "String Integer Long String Integer Long", // a third class past the two kept
    "Void String Void Integer Long Integer String Void", // one without an API among them
  })
  void everyClassGetsItsOwnAnswerWhateverTheOrder(String order) {
    AtomicInteger calls = new AtomicInteger();
    ApiPerClass<Object> perClass = namesOfClasses(calls);
    for (int round = 0; round < 3; round++) {
      for (String name : order.split(" ")) {
        Class<?> type = name.equals("Void") ? Void.class : classOf(name);
        Object answer = perClass.get(type);
        if (type == Void.class) {
          assertNull(answer);
        } else {
          assertEquals(type.getName(), answer);
        }
      }
    }
    assertEquals(java.util.Arrays.stream(order.split(" ")).distinct().count(), calls.get(),
        "looked for once per class");
  }

  private static Class<?> classOf(String simpleName) {
    try {
      return Class.forName("java.lang." + simpleName);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void lookupsOfMoreClassesThanItKeepsAllocateNothing() {
    ApiPerClass<Object> perClass = namesOfClasses(new AtomicInteger());
    Class<?>[] classes = {String.class, Integer.class, Long.class, Short.class};
    for (Class<?> type : classes) {
      perClass.get(type); // each class's first look-up, which its ClassValue keeps
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(thread);
    for (int request = 0; request < 10_000; request++) {
      perClass.get(classes[request % classes.length]);
    }
    long allocated = threads.getThreadAllocatedBytes(thread) - before;
    // a slot replaced at each miss allocates 32 bytes a look-up: 320,000 here
    assertTrue(allocated < 4_096, allocated + " bytes allocated by 10,000 look-ups");
  }

  /** A class of its own class loader, which nothing refers to once the test drops it. */
  public static final class Probe {}

  /**
   * Each class's API is an object that refers to the class, as the servlet API's calls do (a class
   * generated in the request class's own loader); its {@code toString} is the class's name.
   */
  private static ApiPerClass<Object> apisReferringToTheirClass() {
    return new ApiPerClass<Object>("a framework") {
      @Override
      protected Object match(Class<?> type) {
        return new Object() {
          final Class<?> of = type;

          @Override
          public String toString() {
            return of.getName();
          }
        };
      }
    };
  }

  @ParameterizedTest(name = "the API of the class is {0}")
  @CsvSource({"its name", "an object that refers to the class"})
  void aClassLookedUpCanStillBeUnloaded(String api) throws Exception {
    ApiPerClass<Object> perClass = api.equals("its name")
        ? namesOfClasses(new AtomicInteger()) : apisReferringToTheirClass();
    WeakReference<Class<?>> probe = lookUpTwiceInItsOwnLoader(perClass);
    for (int attempt = 0; attempt < 200 && probe.get() != null; attempt++) {
      System.gc(); // until the collector has cleared it: a condition, not a time
    }
    assertNull(probe.get(), "the class is collectable after being looked up");
    assertEquals(String.class.getName(), String.valueOf(perClass.get(String.class)),
        "its slot is used again");
  }

  private static WeakReference<Class<?>> lookUpTwiceInItsOwnLoader(ApiPerClass<Object> perClass)
      throws IOException {
    byte[] bytes;
    String resource = Probe.class.getName().replace('.', '/') + ".class";
    try (InputStream in = ApiPerClassTest.class.getClassLoader().getResourceAsStream(resource)) {
      bytes = in.readAllBytes();
    }
    Class<?> type = new ClassLoader(null) {
      Class<?> define() {
        return defineClass(Probe.class.getName(), bytes, 0, bytes.length);
      }
    }.define();
    assertEquals(Probe.class.getName(), String.valueOf(perClass.get(type)));
    // from the slot kept for it
    assertEquals(Probe.class.getName(), String.valueOf(perClass.get(type)));
    return new WeakReference<>(type);
  }
}
