package io.tollgate.instrumentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
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
}
