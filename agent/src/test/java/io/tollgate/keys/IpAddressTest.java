package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpAddressTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
    // literal                                   | canonical text
    "0.0.0.0                                     | 0.0.0.0",
    "255.255.255.255                             | 255.255.255.255",
    "192.0.2.1                                   | 192.0.2.1",
    "::                                          | ::",
    "::1                                         | ::1",
    "0:0:0:0:0:0:0:1                             | ::1",
    "0:0:0:0:0:0:0:1%0                           | ::1",
    "1::                                         | 1::",
    "2001:DB8::1                                 | 2001:db8::1",
    "2001:0db8:0000:0000:0000:0000:0000:0001     | 2001:db8::1",
    "2001:db8:0:0:1:0:0:1                        | 2001:db8::1:0:0:1",
    "2001:db8:0:1:1:1:1:1                        | 2001:db8:0:1:1:1:1:1",
    "2001:0:0:1:0:0:0:1                          | 2001:0:0:1::1",
    "1:2:3:4:5:6:7::                             | 1:2:3:4:5:6:7:0",
    "::2:3:4:5:6:7:8                             | 0:2:3:4:5:6:7:8",
    "fe80::1%eth0                                | fe80::1",
    "fe80::1%25en0                               | fe80::1",
    "::ffff:1.2.3.4                              | 1.2.3.4",
    "::ffff:102:304                              | 1.2.3.4",
    "2001:db8::192.0.2.1                         | 2001:db8::c000:201",
    "::192.0.2.1                                 | ::c000:201",
    "1:2:3:4:5:6:1.2.3.4                         | 1:2:3:4:5:6:102:304",
  })
  void parsesLiteralsToCanonicalText(String literal, String canonical) {
    assertEquals(canonical, IpAddress.parse(literal).toString());
    assertEquals(IpAddress.parse(canonical), IpAddress.parse(literal));
  }

  @ParameterizedTest(name = "rejects [{0}]")
  @ValueSource(strings = {
    "", " ", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.-1", "01.2.3.4", "1.2.3.04", "0x7f.0.0.1",
    "127.1", "1..2.3", "1.2.3.4.", ".1.2.3.4", "1.2.3.4 ", "1.2.3.4%eth0", "1.2.3.4/32", "1,2,3,4",
    "localhost", "example.com", "unknown", "_hidden", "::1::", ":::", "1:::2", ":1::2", "1::2:", "1:2",
    "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::", "g::1", "::1%", "::1% eth0",
    "1::2.3.4.5.6", "1.2.3.4::", "::1.2.3", "::256.0.0.1", "::ffff:1.2.3.04", "[::1]", "::1]",
    "\uff11.2.3.4", "\u0661.2.3.4", "1.2.3.4\u0000", "::1\n", "1:2:3:4:5:6:7:1.2.3.4",
  })
  void rejectsNonLiterals(String text) {
    assertNull(IpAddress.tryParse(text));
    assertThrows(IllegalArgumentException.class, () -> IpAddress.parse(text));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
    "1.2.3.4:8080                 | 1.2.3.4",
    "1.2.3.4:0                    | 1.2.3.4",
    "1.2.3.4:65535                | 1.2.3.4",
    "1.2.3.4:_obf                 | 1.2.3.4",
    "[2001:db8::1]:443            | 2001:db8::1",
    "[2001:db8::1]                | 2001:db8::1",
    "[fe80::1%eth0]:80            | fe80::1",
    "[::ffff:1.2.3.4]:80          | 1.2.3.4",
    "2001:db8::1                  | 2001:db8::1",
    "2001:db8::1:443              | 2001:db8::1:443",
    "'  1.2.3.4  '                | 1.2.3.4",
  })
  void parsesHostPortForms(String text, String expected) {
    assertEquals(expected, IpAddress.parseHostPort(text).toString());
  }

  @ParameterizedTest(name = "rejects host-port [{0}]")
  @ValueSource(strings = {"1.2.3.4:", "1.2.3.4:65536", "1.2.3.4:123456", "1.2.3.4:x", "1.2.3.4:_", "[1.2.3.4]",
    "[1.2.3.4]:80", "[::1", "[::1]:", "[::1]80", "[::1]:80:80", "[]", "[:]", "host:80", "[::1]:_a b"})
  void rejectsBadHostPortForms(String text) {
    assertNull(IpAddress.parseHostPort(text));
  }

  @Test
  void keysMaskIpv6ButNeverIpv4() {
    assertEquals("2001:db8:1:2::/64", IpAddress.parse("2001:db8:1:2:3:4:5:6").toKey(64));
    assertEquals("192.0.2.1", IpAddress.parse("192.0.2.1").toKey(64));
    assertEquals("192.0.2.1", IpAddress.parse("::ffff:192.0.2.1").toKey(1));
    assertThrows(IllegalArgumentException.class, () -> IpAddress.parse("::1").toKey(0));
    assertThrows(IllegalArgumentException.class, () -> IpAddress.parse("::1").toKey(129));
  }

  @Test
  void maskClearsHostBits() {
    assertEquals(IpAddress.parse("10.0.0.0"), IpAddress.parse("10.1.2.3").mask(8));
    assertEquals(IpAddress.parse("10.0.0.0"), IpAddress.parse("10.1.2.3").mask(9));
    assertEquals(IpAddress.parse("10.128.0.0"), IpAddress.parse("10.129.2.3").mask(9));
    assertEquals(IpAddress.parse("::"), IpAddress.parse("7fff::1").mask(1));
    assertThrows(IllegalArgumentException.class, () -> IpAddress.parse("10.1.2.3").mask(33));
  }

  @Test
  void roundTripsEveryCanonicalForm() {
    java.util.Random rnd = new java.util.Random(7);
    for (int n = 0; n < 20000; n++) {
      StringBuilder sb = new StringBuilder();
      for (int g = 0; g < 8; g++) {
        if (g > 0) {
          sb.append(':');
        }
        sb.append(Integer.toHexString(rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(0x10000)));
      }
      IpAddress a = IpAddress.parse(sb.toString());
      assertEquals(a, IpAddress.parse(a.toString()), sb.toString());
      assertEquals(a.toString(), IpAddress.parse(a.toString().toUpperCase()).toString());
    }
  }

  /**
   * Guard: nothing in io.tollgate.keys may use java.net name resolution. Host names must be rejected
   * by the literal parser, never looked up.
   */
  @Test
  void mainSourcesNeverUseInetAddress() throws IOException {
    Path dir = Paths.get("src/main/java/io/tollgate/keys");
    assertTrue(Files.isDirectory(dir), dir.toAbsolutePath().toString());
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
    }
    assertFalse(files.isEmpty());
    for (Path p : files) {
      String src = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
      String code = src.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
      assertFalse(code.contains("InetAddress") || code.contains("java.net"), p + " uses java.net");
    }
  }

  @Test
  void hostNamesAreRejectedWithoutALookup() {
    // Names are refused by the parser itself; the test above guarantees no java.net is reachable.
    for (int i = 0; i < 1000; i++) {
      assertNull(IpAddress.parseHostPort("no-such-host-" + i + ".invalid"));
      assertNull(IpAddress.parseHostPort("localhost:80"));
    }
  }

  @ParameterizedTest(name = "[{0}] is its own key")
  @ValueSource(strings = {"0.0.0.0", "1.2.3.4", "10.0.0.1", "127.0.0.1", "192.168.100.200",
    "255.255.255.255", "9.99.199.250"})
  void aCanonicalDottedQuadIsItsOwnKey(String text) {
    assertTrue(IpAddress.isCanonicalIpv4(text));
    assertEquals(text, IpAddress.parseHostPort(text).toKey(64));
  }

  @ParameterizedTest(name = "[{0}] needs parsing")
  @ValueSource(strings = {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "01.2.3.4", "1.2.3.04",
    "1.2.3.00", "1..2.3", "1.2.3.4.", ".1.2.3.4", " 1.2.3.4", "1.2.3.4 ", "1.2.3.4:80", "1.2.3.4%eth0",
    "1234.1.1.1", "1.2.3.1000", "::1", "::ffff:1.2.3.4", "[1.2.3.4]", "a.b.c.d", "\u0661.2.3.4",
    "1.2.3.4\u0000", "0x7f.0.0.1", "1.2.3.-1"})
  void anythingElseIsNotTakenAsItsOwnKey(String text) {
    assertFalse(IpAddress.isCanonicalIpv4(text));
  }

  @Test
  void theShortcutAgreesWithTheParserOnRandomDigitsAndDots() {
    java.util.Random random = new java.util.Random(42);
    String alphabet = "0123456789.";
    int canonical = 0;
    for (int i = 0; i < 200_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int n = 7 + random.nextInt(9); n > 0; n--) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String t = text.toString();
      IpAddress parsed = IpAddress.tryParse(t);
      boolean ownKey = parsed != null && parsed.isIpv4() && parsed.toKey(64).equals(t);
      assertEquals(ownKey, IpAddress.isCanonicalIpv4(t), t);
      canonical += ownKey ? 1 : 0;
    }
    assertTrue(canonical > 100, "the sample holds canonical addresses too: " + canonical);
    assertFalse(IpAddress.isCanonicalIpv4(null));
  }
}
