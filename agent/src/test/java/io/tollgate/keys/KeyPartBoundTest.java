package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Key parts are stored as sent up to 64 bytes of UTF-8, and as a 23-character hash beyond. */
class KeyPartBoundTest {

  @ParameterizedTest(name = "{0} x ''{1}'' -> hashed: {2}")
  @CsvSource({
    // repeat, unit,     hashed  (bytes)
    "1,       admin,     false", //   5
    "64,      a,         false", //  64: the most kept as it is
    "65,      a,         true",  //  65
    "32,      \u00fc,    false", //  64 (2 bytes each)
    "33,      \u00fc,    true",  //  66, though 33 chars
    "21,      \u20ac,    false", //  63 (3 bytes each)
    "22,      \u20ac,    true",  //  66
    "16,      \ud83d\ude00, false", // 64 (4 bytes per pair)
    "17,      \ud83d\ude00, true",  // 68
    "1000000, x,         true",  // a megabyte
  })
  void hashesPartsOverSixtyFourBytes(int repeat, String unit, boolean hashed) {
    String part = unit.repeat(repeat);
    String stored = KeyPartBound.bound(part);
    assertEquals(hashed, !stored.equals(part));
    assertEquals(part.getBytes(StandardCharsets.UTF_8).length > KeyPartBound.MAX_BYTES, hashed);
    if (hashed) {
      assertEquals("~" + KeyHash.hash(part), stored);
      assertEquals(1 + KeyHash.LENGTH, stored.length());
    } else {
      assertSame(part, stored);
    }
  }

  @Test
  void noValueSentIsStoredAsTheHashOfAnother() {
    String longName = "x".repeat(100);
    String itsForm = KeyPartBound.bound(longName);
    // a client sending the hashed form itself gets a key of its own, not the long name's budget
    assertNotEquals(itsForm, KeyPartBound.bound(itsForm));
    assertTrue(KeyPartBound.bound("~admin").startsWith("~"));
    assertNotEquals("~admin", KeyPartBound.bound("~admin"));
    assertEquals(null, KeyPartBound.bound(null));
    assertEquals("", KeyPartBound.bound(""));
  }
}
