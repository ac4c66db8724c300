package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which path globs can match a normalised request path, and the form the others need. */
class GlobNormalFormTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // glob                   normal form (the glob itself: it can match)
    "/,                       /",
    "/login,                  /login",
    "/api/**,                 /api/**",
    "/**,                     /**",
    "/users/*,                /users/*",
    "/v?/items,               /v?/items", // '?' is a wildcard, not a query
    "/files/a%2Fb,            /files/a%2Fb", // an encoded '/' stays encoded in paths too
    "/login/,                 /login",
    "/api/**/,                /api/**",
    "//login,                 /login",
    "/a/./b,                  /a/b",
    "/a/../b,                 /b",
    "/login;jsessionid=*,     /login",
    "/%6Cogin,                /login",
    "/files/a%2fb,            /files/a%2Fb",
    "/a\\b,                   /a/b", // a backslash separates segments as some containers do
  })
  void normalFormOf(String glob, String normalForm) {
    assertEquals(normalForm, GlobNormalForm.of(glob));
    assertEquals(glob.equals(normalForm), GlobNormalForm.canMatch(glob));
  }
}
