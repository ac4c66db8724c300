package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathGlobTest {

  @ParameterizedTest(name = "{0} vs {1} -> {2}")
  @CsvSource({
    // ** matches any number of segments, including zero
    "/api/**,          /api,               true",
    "/api/**,          /api/,              true",
    "/api/**,          /api/x,             true",
    "/api/**,          /api/x/y,           true",
    "/api/**,          /apix,              false",
    "/api/**,          /other/api/x,       false",
    "/**,              /,                  true",
    "/**,              /anything/at/all,   true",
    "/api/**/export,   /api/export,        true",
    "/api/**/export,   /api/v1/x/export,   true",
    "/api/**/export,   /api/v1/x/exports,  false",
    "/**/*.json,       /a/b/c.json,        true",
    "/**/*.json,       /c.json,            true",
    "/**/*.json,       /a/b/c.xml,         false",
    // * matches within one segment only
    "/users/*,         /users/1,           true",
    "/users/*,         /users/abc-def,     true",
    "/users/*,         /users/1/x,         false",
    "/users/*,         /users,             false",
    "/users/*/orders,  /users/7/orders,    true",
    "/users/*/orders,  /users/7/8/orders,  false",
    "/files/*.txt,     /files/a.txt,       true",
    "/files/*.txt,     /files/a.txt.gz,    false",
    "/files/a*b*c,     /files/aXbYc,       true",
    "/files/a*b*c,     /files/aXbY,        false",
    // ? matches one character within a segment
    "/v?/items,        /v1/items,          true",
    "/v?/items,        /v12/items,         false",
    "/v?/items,        /v/items,           false",
    "/a?c,             /a/c,               false",
    // everything else is literal
    "/login,           /login,             true",
    "/login,           /login/,            false",
    "/login,           /Login,             false",
    "/login,           /login2,            false",
    "/,                /,                  true",
    "/,                /x,                 false",
    "/a.b,             /axb,               false",
    "'/api/orders/{id}', '/api/orders/{id}', true",
    "'/api/orders/{id}', /api/orders/7,    false",
    // only absolute paths match
    "/**,              relative,           false",
    "/**,              '',                 false",
  })
  void matches(String glob, String path, boolean expected) {
    PathGlob g = PathGlob.compile(glob);
    assertEquals(expected, g.matches(path));
    assertEquals(glob, g.pattern());
  }

  @ParameterizedTest(name = "''{0}'' is not a glob")
  @ValueSource(strings = {"", "api/**", "*.json"})
  void globsMustBeAbsolute(String glob) {
    assertThrows(IllegalArgumentException.class, () -> PathGlob.compile(glob));
  }

  @Test
  void matchingAllocatesNothing() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assertTrue(bean instanceof com.sun.management.ThreadMXBean, "needs HotSpot's allocation counter");
    com.sun.management.ThreadMXBean hotspot = (com.sun.management.ThreadMXBean) bean;
    assertTrue(hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled(),
        "needs the JVM's per-thread allocation counter");
    PathGlob[] globs = {
      PathGlob.compile("/api/**"),
      PathGlob.compile("/users/*/orders"),
      PathGlob.compile("/**/*.json"),
      PathGlob.compile("/v?/items"),
      PathGlob.compile("/login"),
    };
    String[] paths = {"/api/x/y", "/users/7/orders", "/a/b/c.json", "/v1/items", "/login", "/nope/x"};
    int hits = 0;
    for (int warm = 0; warm < 20_000; warm++) {
      hits += globs[warm % globs.length].matches(paths[warm % paths.length]) ? 1 : 0;
    }
    long tid = Thread.currentThread().getId();
    long before = hotspot.getThreadAllocatedBytes(tid);
    for (int i = 0; i < 100_000; i++) {
      for (PathGlob g : globs) {
        hits += g.matches(paths[i % paths.length]) ? 1 : 0;
      }
    }
    long allocated = hotspot.getThreadAllocatedBytes(tid) - before;
    assertTrue(hits > 0);
    // 500 000 matches; a few hundred bytes of slack for the measurement itself
    assertTrue(allocated < 4096, "matching allocated " + allocated + " bytes");
  }
}
