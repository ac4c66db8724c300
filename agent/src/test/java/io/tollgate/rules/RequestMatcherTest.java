package io.tollgate.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which methods a rule's {@code match.methods} counts, as sent and as the application runs them. */
class RequestMatcherTest {

  private static RequestMatcher matcher(String methods) {
    Set<String> listed =
        methods.isEmpty()
            ? Collections.<String>emptySet()
            : new LinkedHashSet<>(Arrays.asList(methods.split(" ")));
    return new RequestMatcher(Collections.singletonList("/api/**"), listed);
  }

  @ParameterizedTest(name = "methods [{0}], {1} -> {2}")
  @CsvSource({
    // listed      request   matches
    "GET,          GET,      true",
    "GET,          HEAD,     true", //  a HEAD runs the GET handler
    "GET,          POST,     false",
    "GET,          OPTIONS,  false",
    "HEAD,         GET,      false", // HEAD alone does not imply GET
    "HEAD,         HEAD,     true",
    "POST,         HEAD,     false",
    "'GET POST',   HEAD,     true",
    "DELETE,       DELETE,   true",
    "'',           HEAD,     true", //  no methods: every method
    "'',           PATCH,    true",
  })
  void methodsAsSent(String listed, String method, boolean matches) {
    assertEquals(matches, matcher(listed).matches(method, "/api/orders/7"));
  }

  @ParameterizedTest(name = "methods [{0}], sent {1}, run as {2} -> only by the override: {3}")
  @CsvSource({
    // listed    sent   effective  only by override
    "DELETE,     POST,  DELETE,    true", //  _method=DELETE: decided where the override is known
    "POST,       POST,  DELETE,    false", // counted as sent, at the first entry point
    "'POST DELETE', POST, DELETE,  false", // once, as sent
    "PUT,        POST,  DELETE,    false", // neither
    "'',         POST,  DELETE,    false", // every method: counted as sent
    "GET,        POST,  HEAD,      true",
  })
  void methodsOnlyAsOverridden(String listed, String sent, String effective, boolean onlyOverride) {
    assertEquals(
        onlyOverride, matcher(listed).matchesOnlyByOverride(sent, effective, "/api/orders/7"));
  }

  @ParameterizedTest(name = "path {0} with methods [DELETE], POST run as DELETE -> {1}")
  @CsvSource({"/api/orders/7, true", "/other, false"})
  void theOverrideStillNeedsThePath(String path, boolean matches) {
    assertEquals(matches, matcher("DELETE").matchesOnlyByOverride("POST", "DELETE", path));
  }
}
