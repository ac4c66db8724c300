package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@code key-normalize} makes of a client-written key value: the variants of one account
 * name an application folding case or trimming treats as one, become one; distinct names stay
 * distinct. Values are written with Java escapes (backslash-u and four hex digits), decoded before the call.
 */
class KeyNormalizerTest {

  @ParameterizedTest(name = "[{0}] -> [{1}]")
  @CsvSource(delimiter = '|', value = {
    // sent                       | normalised   | why
    "admin                        | admin",      // already normal: returned as it is
    "Admin                        | admin",      // case
    "ADMIN                        | admin",
    "' admin'                     | admin",      // leading space
    "'admin '                     | admin",
    "admin\\t                     | admin",      // control characters, anywhere
    "admin\\u0000                 | admin",
    "ad\\u0000min                 | admin",
    "\\uff41\\uff44\\uff4d\\uff49\\uff4e | admin", // full-width letters (NFKC)
    "\\uff21dmin                  | admin",      // full-width capital
    "admin\\u200b                 | admin",      // zero-width space (Cf)
    "ad\\u200dmin                 | admin",      // zero-width joiner
    "\\ufeffadmin                 | admin",      // byte order mark
    "ad\\u00admin                 | admin",      // soft hyphen
    "\\u202eadmin                 | admin",      // right-to-left override
    "\\u00a0admin\\u3000          | admin",      // no-break and ideographic spaces
    "Alice@Example.COM            | alice@example.com",
    "J\\u00fcrgen                 | j\\u00fcrgen", // letters beyond ASCII kept, folded
    "Ju\\u0308rgen                | j\\u00fcrgen", // combining diaeresis composed (NFKC)
    "\\ufb01le                    | file",       // ligature
    "a d m i n                    | a d m i n",  // inner spaces are part of the name
    "admin.                       | admin.",     // punctuation is part of the name
    "'\\u200b'                    | ''",         // nothing visible: empty, still a key of its own
  })
  void normalises(String sent, String expected) {
    assertEquals(unescape(expected), KeyNormalizer.normalize(unescape(sent)));
  }

  @org.junit.jupiter.api.Test
  void returnsPlainLowerCaseAsciiWithoutCopying() {
    String plain = "bob-42@example.org";
    assertSame(plain, KeyNormalizer.normalize(plain));
    assertEquals(null, KeyNormalizer.normalize(null));
  }

  @org.junit.jupiter.api.Test
  void aHugeValueIsFoldedWithoutNfkcExpandingIt() {
    // U+FDFA is one character that NFKC spells in eighteen: a megabyte of them would be 36 MB
    String huge = " \u200b" + "\ufdfa".repeat(1 << 20) + "ABC ";
    String normalised = KeyNormalizer.normalize(huge);
    assertEquals("\ufdfa".repeat(1 << 20) + "abc", normalised);
    // and a value just short enough still gets NFKC
    String limit = "\uff41".repeat(KeyNormalizer.MAX_NFKC_CHARS);
    assertEquals("a".repeat(KeyNormalizer.MAX_NFKC_CHARS), KeyNormalizer.normalize(limit));
  }

  /** Decodes Java's escapes as written in the table: \t, \\uXXXX. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 'u') {
        sb.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
        i += 5;
      } else if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 't') {
        sb.append('\t');
        i++;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
