package io.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which paths look like a login page's: the one-pass search gives what the definition gives
 * (lower case, '-' and '_' removed, one of the words contained), on ASCII and on other paths.
 */
class LoginStyleWordsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // path                          login-style
    "/login,                         true",
    "/LOGIN,                         true",
    "/api/Login/**,                  true",
    "/sign-in,                       true",
    "/sign_in,                       true",
    "/j_security_check,              true",
    "/oauth/token,                   true",
    "/users/password/reset,          true",
    "/passwd,                        true",
    "/otp,                           true",
    "/v1/2fa,                        true",
    "/mfa-verify,                    true",
    "/author/**,                     true", // 'auth' inside a longer word counts, as it always did
    "/tok-en,                        true", // '-' removed before the words are looked for
    "/log_in_page,                   true",
    "/logi,                          false",
    "/tenants/t1/**,                 false",
    "/hello,                         false",
    "/,                              false",
    "/signi,                         false",
    "/securitychec,                  false",
    "/to\u212Aen,                    true", // the Kelvin sign lower-cases to 'k'
    "/LOG\u0130N,                    false", // a dotted capital I lower-cases to two characters
    "/caf\u00e9/login,               true",
    "/caf\u00e9,                     false",
  })
  void loginStyle(String path, boolean loginStyle) {
    assertEquals(loginStyle, LoginStyleWords.in(path));
    assertEquals(loginStyle, LoginStyleWords.inPlainly(path));
  }
}
