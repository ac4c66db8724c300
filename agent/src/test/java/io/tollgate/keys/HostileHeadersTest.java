package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Malformed and hostile forwarding headers (resources/keys/hostile-headers.txt plus generated giants):
 * keys are exactly as listed, deterministic, never thrown, and what a client writes to the left of the
 * trusted part never changes them.
 */
class HostileHeadersTest {

  static final String PEER = "192.0.2.1";

  static final ClientAddressResolver NO_PROXY = new ClientAddressResolver(TrustedProxies.none());
  static final ClientAddressResolver ONE_HOP = new ClientAddressResolver(TrustedProxies.hops(1));
  static final ClientAddressResolver TWO_HOPS = new ClientAddressResolver(TrustedProxies.hops(2));
  static final ClientAddressResolver MAX_HOPS = new ClientAddressResolver(TrustedProxies.hops(TrustedProxies.MAX_HOPS));
  static final ClientAddressResolver CIDRS = new ClientAddressResolver(
      TrustedProxies.cidrs(Arrays.asList("10.0.0.0/8", "192.0.2.0/24", "fc00::/7")));
  static final List<ClientAddressResolver> ALL = Arrays.asList(NO_PROXY, ONE_HOP, TWO_HOPS, MAX_HOPS, CIDRS,
      new ClientAddressResolver(TrustedProxies.hops(3), 128, ClientAddressResolver.HeaderSource.FORWARDED_ONLY));

  static final class Case {
    final int line;
    final String xffKey;
    final String forwardedKey;
    final String value;

    Case(int line, String xffKey, String forwardedKey, String value) {
      this.line = line;
      this.xffKey = xffKey;
      this.forwardedKey = forwardedKey;
      this.value = value;
    }
  }

  static List<Case> corpus() throws IOException {
    List<Case> cases = new ArrayList<>();
    try (InputStream in = HostileHeadersTest.class.getResourceAsStream("/keys/hostile-headers.txt")) {
      assertNotNull(in, "keys/hostile-headers.txt on the test class path");
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.startsWith("#") || line.isEmpty()) {
          continue;
        }
        String[] f = line.split("\t", 3);
        if (f.length != 3) {
          fail("hostile-headers.txt line " + n + ": expected 3 tab-separated fields");
        }
        cases.add(new Case(n, f[0], f[1], unescape(f[2])));
      }
    }
    assertTrue(cases.size() > 50);
    return cases;
  }

  /** \t \n \r \\ \xHH \\uHHHH; any other backslash is literal. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 >= s.length()) {
        sb.append(c);
        continue;
      }
      char e = s.charAt(i + 1);
      if (e == 't') {
        sb.append('\t');
        i++;
      } else if (e == 'n') {
        sb.append('\n');
        i++;
      } else if (e == 'r') {
        sb.append('\r');
        i++;
      } else if (e == '\\') {
        sb.append('\\');
        i++;
      } else if (e == 'x' && i + 3 < s.length()) {
        sb.append((char) Integer.parseInt(s.substring(i + 2, i + 4), 16));
        i += 3;
      } else if (e == 'u' && i + 5 < s.length()) {
        sb.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
        i += 5;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  static List<String> lines(String... l) {
    return Arrays.asList(l);
  }

  @TestFactory
  Stream<DynamicTest> corpusGivesTheListedKeys() throws IOException {
    return corpus().stream().map(c -> DynamicTest.dynamicTest("line " + c.line + ": " + printable(c.value), () -> {
      assertEquals(c.xffKey, ONE_HOP.resolve(PEER, lines(c.value), null), "via X-Forwarded-For");
      assertEquals(c.forwardedKey, ONE_HOP.resolve(PEER, null, lines(c.value)), "via Forwarded");
      assertHolds(c.value);
    }));
  }

  /**
   * Properties that hold for any client-written value v: hop count 0 ignores it; written to the
   * left of a trusted part (same line or an earlier line) it never changes the key; it never
   * throws; the key is the same every time and is a well-formed key.
   */
  static void assertHolds(String v) {
    assertEquals(PEER, NO_PROXY.resolve(PEER, lines(v), lines(v)));
    assertEquals("198.51.100.7", ONE_HOP.resolve(PEER, lines(v + ", 198.51.100.7"), null));
    assertEquals("198.51.100.7", ONE_HOP.resolve(PEER, lines(v, "198.51.100.7"), null));
    assertEquals("198.51.100.7", ONE_HOP.resolve(PEER, null, lines(v + ", for=198.51.100.7")));
    assertEquals("2001:db8::/64", ONE_HOP.resolve(PEER, null, lines(v, "for=\"[2001:db8::7]:1\"")));
    assertEquals("2001:db8::/64", ONE_HOP.resolve(PEER, null, lines(v + ",for=\"[2001:db8::7]:1\"")));
    assertEquals("203.0.113.9", TWO_HOPS.resolve(PEER, lines(v + ",203.0.113.9, 10.0.0.2"), null));
    assertEquals("203.0.113.9", TWO_HOPS.resolve(PEER, null, lines(v, "for=203.0.113.9;proto=https, for=10.0.0.2")));
    assertEquals("203.0.113.9", CIDRS.resolve("10.0.0.1", lines(v, "203.0.113.9, 10.0.0.2"), null));
    assertEquals("203.0.113.9", CIDRS.resolve("10.0.0.1", lines(v + ", 203.0.113.9,[fc00::1]:80"), null));
    assertEquals("203.0.113.9", CIDRS.resolve("10.0.0.1", null,
        lines(v + ", for=203.0.113.9", "for=\"[fc00::2]:80\";by=_x")));
    for (ClientAddressResolver r : ALL) {
      for (List<String> xff : Arrays.asList(lines(v), lines(v, v), null, Collections.<String>emptyList())) {
        for (List<String> fwd : Arrays.asList(lines(v), lines(v, v), null)) {
          String k1 = r.resolve(PEER, xff, fwd);
          String k2 = r.resolve(PEER, xff, fwd);
          assertEquals(k1, k2);
          assertWellFormedKey(k1);
          assertWellFormedKey(r.resolve(v, xff, fwd)); // the value as a peer address, too
        }
      }
    }
  }

  static void assertWellFormedKey(String k) {
    if (k.equals(ClientAddressResolver.UNKNOWN_KEY)) {
      return;
    }
    int slash = k.indexOf('/');
    IpAddress a = IpAddress.tryParse(slash < 0 ? k : k.substring(0, slash));
    assertNotNull(a, k);
    assertEquals(slash < 0, a.isIpv4(), k);
    assertEquals(slash < 0 ? a.toString() : a.toString() + k.substring(slash), k);
  }

  static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < 60; i++) {
      char c = s.charAt(i);
      sb.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return sb.toString();
  }

  static String repeat(String s, int n) {
    StringBuilder sb = new StringBuilder(s.length() * n);
    for (int i = 0; i < n; i++) {
      sb.append(s);
    }
    return sb.toString();
  }

  @Test
  void giantHeaders() {
    List<String> giants = Arrays.asList(
        repeat("1.1.1.1, ", 100_000),                      // 100k entries
        repeat(",", 100_000),                              // many commas
        repeat("a", 1 << 20),                              // 1 MB token
        repeat("\"", 65_536),                              // 64 KB of quotes
        repeat("\\", 1 << 20) + "\"",                      // 1 MB of backslashes before a quote
        "for=\"" + repeat("\\\"", 100_000) + "\"",         // nested escaped quotes
        repeat("for=\"[2001:db8::1]:4711\";proto=https, ", 20_000),
        repeat("\u00e9\ud83d\ude00", 50_000),              // unicode
        repeat("\u0000\r\n\t", 50_000));                   // control characters
    for (String g : giants) {
      assertHolds(g);
    }
    // 100k entries: only the rightmost 32 are read
    String chain = repeat("1.1.1.1, ", 100_000) + "198.51.100.9, 198.51.100.8";
    assertEquals("198.51.100.8", ONE_HOP.resolve(PEER, lines(chain), null));
    assertEquals("198.51.100.9", TWO_HOPS.resolve(PEER, lines(chain), null));
    assertEquals("1.1.1.1", MAX_HOPS.resolve(PEER, lines(chain), null));
    // 100k header lines
    List<String> many = new ArrayList<>(Collections.nCopies(100_000, "1.1.1.1"));
    many.add("198.51.100.7");
    assertEquals("198.51.100.7", ONE_HOP.resolve(PEER, many, many));
    List<String> blank = new ArrayList<>(Collections.nCopies(100_000, " "));
    assertEquals(PEER, ONE_HOP.resolve(PEER, blank, lines("for=198.51.100.7"))); // too big to be "absent"
    // The work is bounded by MAX_ENTRIES/MAX_CHARS, not by header size; its cost belongs in a
    // benchmark, not here.
  }

  @Test
  void workIsBoundedByTheRightmostEntriesAndCharacters() {
    // past the character budget an entry counts as invalid: trusted-only chains end at the last
    // trusted hop reached, never at something further left
    String pad = repeat("10.0.0.1,", 2_000); // > MAX_CHARS of trusted addresses
    assertEquals("10.0.0.1", CIDRS.resolve("10.0.0.9", lines("6.6.6.6, " + pad + "10.0.0.1"), null));
    // a single entry longer than any literal is invalid
    assertEquals(PEER, ONE_HOP.resolve(PEER, lines(repeat(" ", 10_000) + "198.51.100.7"), null));
  }
}
