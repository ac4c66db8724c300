package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
