package io.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A header text keeps its bytes only when a module may copy them as they are: every character
 * printable ASCII. Any other character (a control character, DEL, Latin-1, beyond) leaves the
 * text to the container's own way of writing it.
 */
class HeaderTextTest {

  @ParameterizedTest(name = "''{0}'' has bytes: {1}")
  @CsvSource(
      value = {
        "RateLimit-Policy|true",
        "'\"hello\";q=1000000000;w=1'|true",
        "'\"hello\";r=999999999;t=1'|true",
        "''|true",
        "' ~'|true",
        "caf\u00e9|false",
        "tab\there|false",
        "del\u007f|false",
        "be\u0007ll|false",
        "\u20ac|false",
      },
      delimiter = '|')
  void bytesOnlyForPrintableAscii(String text, boolean hasBytes) {
    HeaderText header = HeaderText.of(text);
    assertEquals(text, header.text());
    if (hasBytes) {
      assertArrayEquals(text.getBytes(StandardCharsets.US_ASCII), header.printableAscii());
    } else {
      assertNull(header.printableAscii());
    }
    // a value built as bytes (ISO-8859-1: the euro sign is '?' there) reads the same way
    byte[] latin1 = text.getBytes(StandardCharsets.ISO_8859_1);
    String asLatin1 = new String(latin1, StandardCharsets.ISO_8859_1);
    HeaderText built = HeaderText.ofBytes(latin1);
    assertEquals(asLatin1, built.text());
    assertEquals(HeaderText.of(asLatin1).printableAscii() != null, built.printableAscii() != null);
  }
}
