package io.tollgate.instrumentation.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which header names are left to Tomcat's {@code setHeader} rather than put in as bytes: those it
 * handles itself (its content type and length), by any case, and, to be safe with any Tomcat,
 * every {@code Content-} name; the quota headers and a refusal's own (its {@code Cache-Control}
 * too) go in as bytes. (What the client receives is {@code QuotaHeadersOnTheWireIT}'s.)
 */
class TomcatResponseHeadersTest {

  @ParameterizedTest(name = "{0}: left to setHeader {1}")
  @CsvSource({
    "Content-Type,     true",
    "content-type,     true",
    "CONTENT-LENGTH,   true",
    "Content-Length,   true",
    "Content-Language, true",
    "Cache-Control,    false",
    "cache-control,    false",
    "Connection,       false",
    "C,                false",
    "Content,          false",
    "Retry-After,      false",
    "Tollgate-Rule,    false",
    "RateLimit,        false",
    "RateLimit-Policy, false",
    "X-RateLimit-Limit, false",
  })
  void namesTomcatHandlesItself(String name, boolean special) {
    assertEquals(special, TomcatResponseHeaders.isSpecial(name));
  }
}
