package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathNormalizerTest {

  @ParameterizedTest(name = "[{0}] -> [{1}]")
  @CsvSource(delimiter = '|', emptyValue = "", nullValues = "NULL", value = {
    // request URI                        | normalised path
    "/login                               | /login",
    "/login/                              | /login",
    "//login                              | /login",
    "/login//                             | /login",
    "///a//b///                           | /a/b",
    "/LOGIN                               | /LOGIN",          // case is kept
    "/login?user=x                        | /login",          // query stripped
    "/login?a=/../admin                   | /login",
    "/login#frag                          | /login",
    "/login;jsessionid=x                  | /login",          // path parameters
    "/login;x/                            | /login",
    "/a;v=1/b;w=2                         | /a/b",
    "/;x/login                            | /login",
    "/login;jsessionid=x?y=1              | /login",
    "/a/../login                          | /login",          // dot segments
    "/a/./b/.                             | /a/b",
    "/a/b/..                              | /a",
    "/a/b/../../..                        | /",               // never above root
    "/../../login                         | /login",
    "/..                                  | /",
    "/./                                  | /",
    "/foo/..;/login                       | /login",          // Tomcat '..;' reading
    "/foo/.;x/login                       | /foo/login",
    "/%6Cogin                             | /login",          // unreserved decoded once
    "/%6cogin                             | /login",
    "/%7Euser/%2Dx%5F%2E                  | /~user/-x_.",
    "/%2e%2e/login                        | /login",          // encoded dot segments
    "/a/%2E%2E/login                      | /login",
    "/a/.%2e/login                        | /login",
    "/a/%2e/login                         | /a/login",
    "/a/%252e%252e/login                  | /a/%252e%252e/login", // no double decoding
    "/a%2Fb                               | /a%2Fb",          // %2F kept encoded: no new segment
    "/a%2fb                               | /a%2Fb",          // hex case normalised
    "/a/..%2F..%2Flogin                   | /a/..%2F..%2Flogin",
    "/a%5Cb                               | /a%5Cb",
    "/a%3Bb                               | /a%3Bb",
    "/a%20b                               | /a%20b",
    "/a\\b                                | /a/b",            // backslash is a separator
    "/a\\..\\login                        | /login",
    "\\login                              | /login",
    "/%                                   | /%",              // malformed escapes kept literally
    "/%4                                  | /%4",
    "/%zz/%4g/%%7E                        | /%zz/%4g/%~",
    "/%%41                                | /%%41",           // no escape completed after a literal %
    "/%%3741                              | /%%3741",
    "/%4%31                               | /%4%31",
    "/100%                                | /100%",
    "''                                   | /",               // empty
    "NULL                                 | /",
    "/                                    | /",
    "?                                    | /",
    "?x=1                                 | /",
    "login                                | /login",          // relative
    "*                                    | /*",
    "http://example.com:8080/a/../login?x | /login",          // absolute-form
    "https://example.com                  | /",
    "/caf\u00e9/\u00fcber                 | /caf\u00e9/\u00fcber",
    "/a\u0000b/c\u0007                    | /a\u0000b/c\u0007",
  })
  void normalises(String uri, String expected) {
    assertEquals(expected, PathNormalizer.normalize(uri));
  }

  @Test
  void everyVariantOfLoginNormalisesToLogin() {
    String[] variants = {"/login", "/login/", "/a/../login", "/login;jsessionid=x", "/login;x/", "/%6cogin",
      "//login", "/./login", "/x/..;/login", "/%2e/login", "/login?next=/", "/login/.", "/login/x/.."};
    for (String v : variants) {
      assertEquals("/login", PathNormalizer.normalize(v), v);
    }
  }

  @Test
  void isIdempotent() {
    Random rnd = new Random(11);
    String alphabet = "/\\.;%%2eEfF5cC3471?#aZ~-_ \u00e9\u0000";
    for (int n = 0; n < 50000; n++) {
      StringBuilder sb = new StringBuilder();
      int len = rnd.nextInt(24);
      for (int i = 0; i < len; i++) {
        sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      String once = PathNormalizer.normalize(sb.toString());
      assertTrue(once.startsWith("/"), sb.toString());
      assertEquals(once, PathNormalizer.normalize(once), sb.toString());
    }
  }

  @Test
  void handlesHugeInputsInLinearTime() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200_000; i++) {
      sb.append("/a");
    }
    for (int i = 0; i < 200_000; i++) {
      sb.append("/..");
    }
    sb.append("/login;");
    for (int i = 0; i < 100_000; i++) {
      sb.append("%");
    }
    assertEquals("/login", PathNormalizer.normalize(sb.toString()));
  }

  @Test
  void theShortcutForNormalPathsAgreesWithTheFullNormalisation() {
    Random random = new Random(7);
    String[] pieces = {"/", "/", "a", "b", ".", "..", ";", "%", "2e", "\\", "?", "#", "//", "x.y"};
    int normal = 0;
    for (int i = 0; i < 200_000; i++) {
      StringBuilder path = new StringBuilder();
      for (int n = random.nextInt(8); n >= 0; n--) {
        path.append(pieces[random.nextInt(pieces.length)]);
      }
      String p = path.toString();
      String full = PathNormalizer.normalizeCopy(p);
      assertEquals(full, PathNormalizer.normalize(p), p);
      if (PathNormalizer.isNormal(p)) {
        assertEquals(p, full, "taken as normal: " + p);
        normal++;
      }
    }
    assertTrue(normal > 1_000, "the sample holds normal paths too: " + normal);
  }
}
