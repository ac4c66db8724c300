package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tollgate.keys.ClientAddressResolver.HeaderSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The client-ip semantics of interfaces.md section 3, as a specification. */
class ClientAddressResolverTest {

  private static final String PROXY = "10.0.0.1";

  static List<String> lines(String... l) {
    return Arrays.asList(l);
  }

  static String xffKey(int hops, String peer, String... xffLines) {
    return new ClientAddressResolver(TrustedProxies.hops(hops)).resolve(peer, lines(xffLines), null);
  }

  static String fwdKey(int hops, String peer, String... forwardedLines) {
    return new ClientAddressResolver(TrustedProxies.hops(hops)).resolve(peer, null, lines(forwardedLines));
  }

  // ---------------------------------------------------------------- hop count

  @Test
  void oneTrustedHopAlwaysPicksTheAddressThePeerProxyWrote() {
    for (int i = 0; i < 256; i++) {
      assertEquals("198.51.100.7", xffKey(1, PROXY, "203.0.113." + i + ", 198.51.100.7"), "i=" + i);
    }
  }

  @Test
  void noTrustedHopIgnoresRotatingForwardedForAndUsesThePeer() {
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 256; i++) {
      keys.add(xffKey(0, "192.0.2.9", "203.0.113." + i));
      keys.add(new ClientAddressResolver(TrustedProxies.none())
          .resolve("192.0.2.9", lines("203.0.113." + i), lines("for=198.51.100." + i)));
    }
    assertEquals(Collections.singleton("192.0.2.9"), keys);
  }

  static Stream<Arguments> hopCountTable() {
    String chain = "0.0.0.1, 0.0.0.2, 0.0.0.3";
    return Stream.of(
        // hops, X-Forwarded-For lines, expected key            why
        Arguments.of(1, lines(chain), "0.0.0.3"),            // 1st from the right
        Arguments.of(2, lines(chain), "0.0.0.2"),
        Arguments.of(3, lines(chain), "0.0.0.1"),
        Arguments.of(4, lines(chain), "0.0.0.3"),            // short: rightmost, never leftmost
        Arguments.of(32, lines(chain), "0.0.0.3"),
        Arguments.of(1, lines("0.0.0.1, 0.0.0.2", "0.0.0.3"), "0.0.0.3"), // lines concatenate in order
        Arguments.of(2, lines("0.0.0.1, 0.0.0.2", "0.0.0.3"), "0.0.0.2"),
        Arguments.of(3, lines("0.0.0.1", "0.0.0.2", "0.0.0.3"), "0.0.0.1"),
        Arguments.of(1, lines(), PROXY),                     // no header: the peer
        Arguments.of(1, null, PROXY),
        Arguments.of(1, lines("   "), PROXY),                // blank line: no entries
        Arguments.of(1, lines("garbage"), PROXY),            // rightmost invalid: the peer
        Arguments.of(1, lines("198.51.100.7, "), PROXY),     // empty rightmost entry is invalid
        Arguments.of(2, lines("203.0.113.7, garbage"), PROXY),
        Arguments.of(2, lines("garbage, 198.51.100.7"), "198.51.100.7"), // stop at garbage
        Arguments.of(3, lines("203.0.113.7, unknown, 198.51.100.7"), "198.51.100.7"),
        Arguments.of(2, lines("203.0.113.7, example.com, 198.51.100.7"), "198.51.100.7"), // no DNS
        Arguments.of(2, lines("garbage, 203.0.113.7, 198.51.100.7"), "203.0.113.7"), // left of N unread
        Arguments.of(1, lines("203.0.113.7, 198.51.100.7:4711"), "198.51.100.7"), // port dropped
        Arguments.of(1, lines("[2001:db8::1]:443"), "2001:db8::/64"),
        Arguments.of(1, lines("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64"),
        Arguments.of(1, lines("fe80::1%eth0"), "fe80::/64"),  // zone id dropped
        Arguments.of(1, lines("::ffff:198.51.100.7"), "198.51.100.7"),
        Arguments.of(1, lines("\t198.51.100.7\t"), "198.51.100.7"),
        Arguments.of(1, lines("198.51.100.07"), PROXY),       // leading zero: not a literal
        Arguments.of(1, lines("\"198.51.100.7\""), PROXY)     // quotes are not XFF syntax
    );
  }

  @ParameterizedTest(name = "hops={0} xff={1} -> {2}")
  @MethodSource("hopCountTable")
  void hopCount(int hops, List<String> xff, String expected) {
    assertEquals(expected, new ClientAddressResolver(TrustedProxies.hops(hops)).resolve(PROXY, xff, null));
  }

  @Test
  void aClientWritingLeftOfTheTrustedPartNeverChoosesItsKey() {
    String[] hostile = {"1.1.1.1", "garbage", "", "unknown", "1.1.1.1, 2.2.2.2, 3.3.3.3", "[::1]:80",
      "\"", "for=1.1.1.1", ",,,,"};
    for (String h : hostile) {
      // two proxies: the outer one appended the client's real address, the inner (peer) the outer's
      assertEquals("203.0.113.7", xffKey(2, PROXY, h + ", 203.0.113.7, 10.0.0.2"), h);
      assertEquals("203.0.113.7", xffKey(2, PROXY, h, "203.0.113.7, 10.0.0.2"), h);
      assertEquals("203.0.113.7", xffKey(2, PROXY, h, "203.0.113.7", "10.0.0.2"), h);
    }
  }

  @Test
  void hopCountOutOfRangeIsAConfigurationError() {
    assertThrows(IllegalArgumentException.class, () -> TrustedProxies.hops(-1));
    assertThrows(IllegalArgumentException.class, () -> TrustedProxies.hops(TrustedProxies.MAX_HOPS + 1));
    assertEquals(32, TrustedProxies.hops(32).hopCount());
  }

  // ---------------------------------------------------------------- CIDR list

  static final TrustedProxies CIDRS = TrustedProxies.cidrs(lines("10.0.0.0/8", "2001:db8:ffff::/48"));

  static Stream<Arguments> cidrTable() {
    List<String> longChain = new ArrayList<>();
    longChain.add("1.2.3.4");
    for (int k = 40; k >= 1; k--) {
      longChain.add("10.0.1." + k);
    }
    return Stream.of(
        // peer, X-Forwarded-For lines, expected key
        Arguments.of("10.0.0.5", lines("6.6.6.6, 1.2.3.4, 10.0.0.7"), "1.2.3.4"), // rightmost untrusted
        Arguments.of("10.0.0.5", lines("6.6.6.6, 1.2.3.4", "10.0.0.7"), "1.2.3.4"),
        Arguments.of("10.0.0.5", lines("1.2.3.4"), "1.2.3.4"),
        Arguments.of("203.0.113.9", lines("10.0.0.1"), "203.0.113.9"), // untrusted peer: headers ignored
        Arguments.of("203.0.113.9", lines("1.2.3.4"), "203.0.113.9"),
        Arguments.of("10.0.0.5", lines("10.0.0.8, 10.0.0.7"), "10.0.0.8"), // all trusted: leftmost reached
        Arguments.of("10.0.0.5", lines(), "10.0.0.5"),
        Arguments.of("10.0.0.5", lines("1.2.3.4, garbage, 10.0.0.7"), "10.0.0.7"), // last trusted before garbage
        Arguments.of("10.0.0.5", lines("1.2.3.4, garbage"), "10.0.0.5"),
        Arguments.of("10.0.0.5", lines("1.2.3.4, _hidden, 10.0.0.7"), "10.0.0.7"),
        Arguments.of("::ffff:10.0.0.5", lines("1.2.3.4"), "1.2.3.4"),            // mapped peer is IPv4
        Arguments.of("0:0:0:0:0:ffff:a00:5", lines("1.2.3.4"), "1.2.3.4"),
        Arguments.of("10.0.0.5", lines("::ffff:10.0.0.9, 1.2.3.4"), "1.2.3.4"),
        Arguments.of("10.0.0.5", lines("1.2.3.4, ::ffff:10.0.0.9"), "1.2.3.4"),  // mapped hop trusted
        Arguments.of("2001:db8:ffff::1", lines("2001:db8:1:2::99"), "2001:db8:1:2::/64"),
        Arguments.of("[2001:db8:ffff::1]:8443", lines("9.9.9.9, [2001:db8:ffff:1::1]:80"), "9.9.9.9"),
        Arguments.of("2001:db8:fffe::1", lines("1.2.3.4"), "2001:db8:fffe::/64"), // untrusted v6 peer
        Arguments.of("10.0.0.5", longChain, "10.0.1.32"), // 32 entries examined, last trusted reached
        Arguments.of("unix:/run/app.sock", lines("1.2.3.4"), "unknown"),
        Arguments.of(null, lines("1.2.3.4"), "unknown")
    );
  }

  @ParameterizedTest(name = "peer={0} xff={1} -> {2}")
  @MethodSource("cidrTable")
  void cidrTrustedChains(String peer, List<String> xff, String expected) {
    assertEquals(expected, new ClientAddressResolver(CIDRS).resolve(peer, xff, null));
  }

  @Test
  void emptyCidrListIgnoresHeaders() {
    ClientAddressResolver r = new ClientAddressResolver(TrustedProxies.cidrs(Collections.<String>emptyList()));
    assertEquals("10.0.0.5", r.resolve("10.0.0.5", lines("1.2.3.4"), lines("for=1.2.3.4")));
  }

  @Test
  void rotatingTheLeftPartOfACidrChainKeepsOneKey() {
    ClientAddressResolver r = new ClientAddressResolver(CIDRS);
    for (int i = 0; i < 256; i++) {
      assertEquals("1.2.3.4", r.resolve("10.0.0.5", lines("6.6.6." + i + ", 1.2.3.4, 10.0.0.7"), null));
    }
  }

  // ---------------------------------------------------------------- RFC 7239 Forwarded

  static Stream<Arguments> forwardedTable() {
    return Stream.of(
        // hops, Forwarded lines, expected key
        // RFC 7239 section 4 examples
        Arguments.of(1, lines("for=\"_gazonk\""), PROXY),                           // obfuscated: not keyable
        Arguments.of(1, lines("For=\"[2001:db8:cafe::17]:4711\""), "2001:db8:cafe::/64"),
        Arguments.of(1, lines("for=192.0.2.60;proto=http;by=203.0.113.43"), "192.0.2.60"),
        Arguments.of(1, lines("for=192.0.2.43, for=198.51.100.17"), "198.51.100.17"),
        Arguments.of(2, lines("for=192.0.2.43, for=198.51.100.17"), "192.0.2.43"),
        // RFC 7239 section 7.1: one list, two spellings, and split over two header lines
        Arguments.of(1, lines("for=192.0.2.43,for=\"[2001:db8:cafe::17]\",for=unknown"), PROXY),
        Arguments.of(1, lines("for=192.0.2.43, for=\"[2001:db8:cafe::17]\", for=unknown"), PROXY),
        Arguments.of(1, lines("for=192.0.2.43", "for=\"[2001:db8:cafe::17]\", for=unknown"), PROXY),
        Arguments.of(1, lines("for=192.0.2.43", "for=\"[2001:db8:cafe::17]\""), "2001:db8:cafe::/64"),
        Arguments.of(2, lines("for=192.0.2.43", "for=\"[2001:db8:cafe::17]\""), "192.0.2.43"),
        Arguments.of(2, lines("for=192.0.2.43,for=\"[2001:db8:cafe::17]\""), "192.0.2.43"),
        // RFC 7239 sections 6.2/6.3: unknown and obfuscated identifiers and ports
        Arguments.of(1, lines("for=unknown"), PROXY),
        Arguments.of(1, lines("for=_hidden, for=_SEVKISEK"), PROXY),
        Arguments.of(2, lines("for=_hidden, for=198.51.100.17"), "198.51.100.17"), // short: rightmost
        Arguments.of(1, lines("for=\"192.0.2.43:47011\""), "192.0.2.43"),
        Arguments.of(1, lines("for=\"192.0.2.43:_obfport\""), "192.0.2.43"),
        Arguments.of(1, lines("for=\"[2001:db8:cafe::17]:_p1\""), "2001:db8:cafe::/64"),
        // syntax variations
        Arguments.of(1, lines("FOR=192.0.2.60"), "192.0.2.60"),
        Arguments.of(1, lines("proto=https ; For = 192.0.2.60 ; by=10.0.0.1"), "192.0.2.60"),
        Arguments.of(1, lines("for=192.0.2.60;"), "192.0.2.60"),
        Arguments.of(1, lines("for=\"::ffff:192.0.2.60\""), "192.0.2.60"),
        Arguments.of(1, lines("for=\"[2001:db8:cafe::17]"), PROXY),                 // unterminated quote
        Arguments.of(1, lines("for=\"\\\"192.0.2.1\\\"\""), PROXY),                   // escaped quotes in value
        Arguments.of(1, lines("for=\"1\\92.0.2.1\""), "192.0.2.1"),                   // quoted-pair unescaped
        Arguments.of(1, lines("for=192.0.2.43;for=198.51.100.1"), PROXY),             // duplicate for
        Arguments.of(1, lines("proto=https;by=10.0.0.1"), PROXY),                     // no for
        Arguments.of(1, lines("for=192.0.2.43 junk"), PROXY),
        Arguments.of(1, lines("for=\"192.0.2.43\"junk"), PROXY),
        Arguments.of(1, lines("for="), PROXY),
        Arguments.of(1, lines("for=localhost"), PROXY),                               // no DNS
        Arguments.of(1, lines("for=\"_a,b\", for=198.51.100.17"), "198.51.100.17"),   // comma inside quotes
        Arguments.of(2, lines("for=\"_a,b\", for=198.51.100.17"), "198.51.100.17"),
        Arguments.of(2, lines("for=\"x,for=6.6.6.6\", for=192.0.2.43, for=198.51.100.17"), "192.0.2.43"),
        Arguments.of(2, lines("for=6.6.6.6, for=\"[2001:db8::1]\", for=198.51.100.17"), "2001:db8::/64")
    );
  }

  @ParameterizedTest(name = "hops={0} forwarded={1} -> {2}")
  @MethodSource("forwardedTable")
  void forwarded(int hops, List<String> forwarded, String expected) {
    assertEquals(expected, new ClientAddressResolver(TrustedProxies.hops(hops)).resolve(PROXY, null, forwarded));
  }

  @Test
  void forwardedWithCidrTrust() {
    ClientAddressResolver r = new ClientAddressResolver(CIDRS);
    assertEquals("192.0.2.43", r.resolve("10.0.0.5", null,
        lines("for=6.6.6.6, for=192.0.2.43;proto=https, for=\"[2001:db8:ffff::2]:80\"")));
    assertEquals("10.0.0.5", r.resolve("10.0.0.5", null, lines("for=192.0.2.43, for=unknown")));
    assertEquals("10.0.0.9", r.resolve("10.0.0.5", null, lines("for=_x, for=10.0.0.9")));
    assertEquals("203.0.113.1", r.resolve("203.0.113.1", null, lines("for=192.0.2.43")));
  }

  @Test
  void xForwardedForTakesPrecedenceOverForwardedUnlessConfiguredOtherwise() {
    List<String> xff = lines("198.51.100.1");
    List<String> fwd = lines("for=192.0.2.2");
    TrustedProxies one = TrustedProxies.hops(1);
    assertEquals("198.51.100.1", new ClientAddressResolver(one).resolve(PROXY, xff, fwd));
    assertEquals("192.0.2.2", new ClientAddressResolver(one).resolve(PROXY, lines("", " \t"), fwd));
    assertEquals("192.0.2.2", new ClientAddressResolver(one, 64, HeaderSource.FORWARDED_ONLY)
        .resolve(PROXY, xff, fwd));
    assertEquals("198.51.100.1", new ClientAddressResolver(one, 64, HeaderSource.X_FORWARDED_FOR_ONLY)
        .resolve(PROXY, xff, fwd));
    assertEquals(PROXY, new ClientAddressResolver(one, 64, HeaderSource.X_FORWARDED_FOR_ONLY)
        .resolve(PROXY, null, fwd));
    // a present but garbage X-Forwarded-For is still the chosen header: no switching to Forwarded
    assertEquals(PROXY, new ClientAddressResolver(one).resolve(PROXY, lines("garbage"), fwd));
  }

  // ---------------------------------------------------------------- IPv6 prefixes and IPv4-mapped

  @Test
  void addressesInOneIpv6Slash64ShareAKeyAndDifferentSlash64sDiffer() {
    ClientAddressResolver r = new ClientAddressResolver(TrustedProxies.none());
    String k = r.resolve("2001:db8:1:2::1", null, null);
    assertEquals("2001:db8:1:2::/64", k);
    for (String a : new String[] {"2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:DB8:1:2:0:0:0:99",
      "[2001:db8:1:2::5]:443", "2001:db8:1:2::7%eth0", "2001:0db8:0001:0002:abcd::1"}) {
      assertEquals(k, r.resolve(a, null, null), a);
    }
    for (String a : new String[] {"2001:db8:1:3::1", "2001:db8:1:1:ffff:ffff:ffff:ffff", "2001:db9:1:2::1"}) {
      assertEquals(false, k.equals(r.resolve(a, null, null)), a);
    }
  }

  static Stream<Arguments> prefixTable() {
    return Stream.of(
        Arguments.of(64, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        Arguments.of(56, "2001:db8:1:2ff:3:4:5:6", "2001:db8:1:200::/56"),
        Arguments.of(48, "2001:db8:1:2:3:4:5:6", "2001:db8:1::/48"),
        Arguments.of(128, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2:3:4:5:6/128"),
        Arguments.of(1, "2001:db8::1", "::/1"),
        Arguments.of(1, "ff02::1", "8000::/1"),
        Arguments.of(60, "2001:db8:1:2f::1", "2001:db8:1:20::/60"),
        Arguments.of(64, "198.51.100.7", "198.51.100.7"),          // IPv4 is never masked
        Arguments.of(8, "::ffff:198.51.100.7", "198.51.100.7"));
  }

  @ParameterizedTest(name = "/{0} {1} -> {2}")
  @MethodSource("prefixTable")
  void ipv6PrefixIsConfigurable(int prefix, String peer, String expected) {
    assertEquals(expected, new ClientAddressResolver(TrustedProxies.none(), prefix).resolve(peer, null, null));
  }

  @Test
  void prefixOutOfRangeIsAConfigurationError() {
    assertThrows(IllegalArgumentException.class, () -> new ClientAddressResolver(TrustedProxies.none(), 0));
    assertThrows(IllegalArgumentException.class, () -> new ClientAddressResolver(TrustedProxies.none(), 129));
  }

  static Stream<Arguments> mappedTable() {
    // CVE-2026-30827: IPv4-mapped must be keyed as IPv4, detected by bits
    return Stream.of(
        Arguments.of("::ffff:1.2.3.4", "1.2.3.4"),
        Arguments.of("::ffff:5.6.7.8", "5.6.7.8"),
        Arguments.of("::ffff:102:304", "1.2.3.4"),
        Arguments.of("0:0:0:0:0:ffff:0102:0304", "1.2.3.4"),
        Arguments.of("::FFFF:1.2.3.4", "1.2.3.4"),
        Arguments.of("[::ffff:1.2.3.4]:8080", "1.2.3.4"),
        Arguments.of("2001:db8::1.2.3.4", "2001:db8::/64"),       // not mapped
        Arguments.of("::fffe:1.2.3.4", "::/64"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("mappedTable")
  void ipv4MappedIsKeyedAsIpv4(String peer, String expected) {
    assertEquals(expected, new ClientAddressResolver(TrustedProxies.none()).resolve(peer, null, null));
  }

  static Stream<Arguments> embeddedIpv4Table() {
    // IPv6 addresses a translator or tunnel made from an IPv4 client: keyed by that client, or
    // every user of one NAT64 gateway (one 6to4 relay...) would share one /64
    return Stream.of(
        // NAT64, well-known prefix 64:ff9b::/96 (RFC 6052)
        Arguments.of("64:ff9b::1.2.3.4", "1.2.3.4"),
        Arguments.of("64:ff9b::c000:221", "192.0.2.33"),
        Arguments.of("[64:ff9b::203.0.113.9]:443", "203.0.113.9"),
        Arguments.of("64:ff9b:0:0:1::1.2.3.4", "64:ff9b::/64"),       // outside the /96: IPv6
        Arguments.of("64:ff9b:1::1.2.3.4", "64:ff9b:1::/64"),         // local-use /48: IPv6
        // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765)
        Arguments.of("::ffff:0:198.51.100.7", "198.51.100.7"),
        // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291); 0.0.0.0/8 is no client's address
        Arguments.of("::1.2.3.4", "1.2.3.4"),
        Arguments.of("::c633:6407", "198.51.100.7"),
        Arguments.of("::1", "::/64"),
        Arguments.of("::", "::/64"),
        Arguments.of("::0.1.2.3", "::/64"),
        // 6to4, 2002::/16 (RFC 3056): bits 16..47 are the site's IPv4 address
        Arguments.of("2002:c000:204::1", "192.0.2.4"),
        Arguments.of("2002:cb00:7107:1:2:3:4:5", "203.0.113.7"),
        Arguments.of("2003:c000:204::1", "2003:c000:204::/64"),
        // Teredo, 2001:0::/32 (RFC 4380): the client's public IPv4, the last 32 bits inverted
        Arguments.of("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),
        Arguments.of("2001::ffff:ffff:3fff:fdd2", "192.0.2.45"),
        Arguments.of("2001:1::3fff:fdd2", "2001:1::/64"),              // not Teredo
        Arguments.of("2001:db8::3fff:fdd2", "2001:db8::/64"));         // documentation: IPv6
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("embeddedIpv4Table")
  void anIpv6AddressThatCarriesAnIpv4ClientIsKeyedByIt(String peer, String expected) {
    assertEquals(expected, new ClientAddressResolver(TrustedProxies.none()).resolve(peer, null, null));
  }

  @Test
  void twoNat64UsersHaveTwoKeysAndAProxyCidrOfTheirPrefixStillMatches() {
    ClientAddressResolver r =
        new ClientAddressResolver(TrustedProxies.cidrs(java.util.Arrays.asList("64:ff9b::/96")));
    assertEquals("1.2.3.4", r.resolve("64:ff9b::1.2.3.4", null, null));
    assertEquals("1.2.3.5", r.resolve("64:ff9b::1.2.3.5", null, null));
    // CIDRs match the IPv6 address as it is: a proxy reached over NAT64 is trusted by its prefix
    assertEquals("203.0.113.9", r.resolve("64:ff9b::1.2.3.4", lines("203.0.113.9"), null));
  }

  @Test
  void resolveAddressGivesTheUnmaskedAddress() {
    ClientAddressResolver r = new ClientAddressResolver(TrustedProxies.hops(1));
    assertEquals(IpAddress.parse("2001:db8:1:2::99"), r.resolveAddress(PROXY, lines("2001:db8:1:2::99"), null));
    assertNull(r.resolveAddress("not-an-ip", null, null));
  }
}
