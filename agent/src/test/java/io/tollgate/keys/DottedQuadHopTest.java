package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Behind N proxies counted by hops, the usual {@code X-Forwarded-For} (dotted quads in its last
 * line) gives its key without the full reading: the same key the full reading gives, and, when
 * the client's entry is the whole line, the line itself. Lines are separated by {@code |}.
 */
class DottedQuadHopTest {

  @ParameterizedTest(name = "hops {0}, X-Forwarded-For [{1}]: {2}")
  @CsvSource(delimiter = ';', value = {
      // hops ; lines (| between lines) ; key taken quickly, or - for the full reading
      "1 ; 203.0.113.7                         ; 203.0.113.7",
      "1 ; 198.51.100.1, 203.0.113.7           ; 203.0.113.7",
      "1 ; 198.51.100.1,203.0.113.7            ; 203.0.113.7",
      "1 ; '  203.0.113.7\t '                  ; 203.0.113.7",
      "2 ; 198.51.100.1, 203.0.113.7           ; 198.51.100.1",
      "2 ; garbage, 198.51.100.1, 203.0.113.7  ; 198.51.100.1",
      "3 ; 198.51.100.1, 203.0.113.7           ; -",
      "2 ; 198.51.100.1 | 203.0.113.7          ; -",
      "1 ; 198.51.100.1 | 203.0.113.7          ; 203.0.113.7",
      "1 ; 203.0.113.7 |                       ; -",
      "1 ; 203.0.113.7:8080                    ; -",
      "1 ; [2001:db8::1]                       ; -",
      "1 ; 2001:db8::1                         ; -",
      "1 ; ::ffff:203.0.113.7                  ; -",
      "1 ; 203.0.113.07                        ; -",
      "1 ; 203.0.113.256                       ; -",
      "1 ; 203.0.113                           ; -",
      "1 ; unknown                             ; -",
      "1 ; for=203.0.113.7                     ; -",
      "1 ; 198.51.100.1,                       ; -",
      "2 ; 198.51.100.1,, 203.0.113.7          ; -",
      "2 ; host.example, 203.0.113.7           ; -",
      "1 ; ''                                  ; -",
  })
  void takesTheUsualHeaderQuicklyAndAsTheFullReadingDoes(int hops, String header, String quick) {
    List<String> lines = linesOf(header);
    String expected = "-".equals(quick) ? null : quick;

    assertEquals(expected, ClientAddressResolver.dottedQuadHop(lines, hops));
    ClientAddressResolver resolver = new ClientAddressResolver(TrustedProxies.hops(hops));
    String full = resolver.resolve("10.0.0.1", lines, Collections.emptyList());
    String key = resolver.resolveFrom("10.0.0.1", lines, (request, name) ->
        name.equals("X-Forwarded-For") ? request : Collections.emptyList());
    assertEquals(full, key, "the key the full reading gives");
    if (expected != null) {
      assertEquals(full, expected);
    }
  }

  @ParameterizedTest(name = "X-Forwarded-For [{0}]")
  @CsvSource(delimiter = ';', value = {"203.0.113.7", "10.0.0.1", "255.255.255.255", "0.0.0.0"})
  void aWholeLineIsTheKeyItself(String line) {
    assertSame(line, ClientAddressResolver.dottedQuadHop(List.of(line), 1));
  }

  @ParameterizedTest(name = "{0} spaces before the address")
  @CsvSource({"1000", "1024", "5000", "9000"})
  void aLongLineIsLeftToTheFullReadingAndItsBudget(int spaces) {
    String line = " ".repeat(spaces) + "203.0.113.7";
    if (line.length() > ClientAddressResolver.QUICK_HOP_CHARS) {
      assertNull(ClientAddressResolver.dottedQuadHop(List.of(line), 1));
    }
    ClientAddressResolver resolver = new ClientAddressResolver(TrustedProxies.hops(1));
    assertEquals(resolver.resolve("10.0.0.1", List.of(line), Collections.emptyList()),
        resolver.resolveFrom("10.0.0.1", List.of(line), (request, name) ->
            name.equals("X-Forwarded-For") ? request : Collections.emptyList()));
  }

  private static List<String> linesOf(String header) {
    return header.isEmpty() ? Collections.emptyList() : Arrays.asList(header.split("\\|", -1));
  }
}
