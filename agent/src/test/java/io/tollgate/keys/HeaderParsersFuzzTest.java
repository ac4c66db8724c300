package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of the header and path parsers against their invariants.
 *
 * <ul>
 *   <li>{@link #fuzzHeaders(byte[])} is a Jazzer {@code @FuzzTest}. During {@code mvn test} Jazzer
 *       runs it in regression mode (its seed inputs only); {@code JAZZER_FUZZ=1 mvn test
 *       -Dtest=HeaderParsersFuzzTest} runs coverage-guided fuzzing.</li>
 *   <li>{@link #seededMutationFuzz()} runs in every build: {@code ITERATIONS} structure-aware random
 *       and mutated inputs (default 50 000) from a fixed seed, through the same checks.</li>
 *   <li>{@link #hostileCorpusThroughTheByteEntryPoint()} replays resources/keys/hostile-headers.txt
 *       through the byte decoder used by the Jazzer entry point.</li>
 *   <li>{@link #jazzerCorpusReplays()} replays resources/keys/fuzz-corpus.b64, the corpus a
 *       coverage-guided Jazzer run produced, through the Jazzer entry point. (Jazzer's own regression
 *       inputs directory would live outside resources/keys/, so the corpus is kept there instead.)</li>
 * </ul>
 * Time per input is not asserted.
 */
class HeaderParsersFuzzTest {

  /** Inputs per build; override with {@code -Dtollgate.fuzz.iterations=N} (e.g. millions, locally). */
  static final int ITERATIONS = Integer.getInteger("tollgate.fuzz.iterations", 50_000);
  static final long SEED = 0x70116A7E5EEDL;

  /** Jazzer entry point: the bytes are decoded into a peer, header lines and a free string. */
  @FuzzTest(maxDuration = "60s")
  void fuzzHeaders(byte[] data) {
    check(Input.decode(data));
  }

  @Test
  void seededMutationFuzz() {
    Random rnd = new Random(SEED);
    for (int n = 0; n < ITERATIONS; n++) {
      Input in = Input.random(rnd);
      try {
        check(in);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("iteration " + n + " input " + in, e);
      }
    }
  }

  @Test
  void jazzerCorpusReplays() throws IOException {
    int n = 0;
    try (java.io.InputStream in = HeaderParsersFuzzTest.class.getResourceAsStream("/keys/fuzz-corpus.b64")) {
      assertNotNull(in, "keys/fuzz-corpus.b64 on the test class path");
      java.io.BufferedReader r = new java.io.BufferedReader(
          new java.io.InputStreamReader(in, StandardCharsets.US_ASCII));
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("#") || line.isEmpty()) {
          continue;
        }
        byte[] data = java.util.Base64.getDecoder().decode(line);
        try {
          fuzzHeaders(data);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("corpus entry " + line, e);
        }
        n++;
      }
    }
    assertTrue(n > 100, "corpus entries: " + n);
  }

  @Test
  void hostileCorpusThroughTheByteEntryPoint() throws IOException {
    for (HostileHeadersTest.Case c : HostileHeadersTest.corpus()) {
      byte[] v = c.value.getBytes(StandardCharsets.ISO_8859_1);
      byte[] data = new byte[v.length * 3 + 4];
      int i = 0;
      data[i++] = '1';
      data[i++] = (byte) 0xFF;
      for (byte b : v) {
        data[i++] = b;
      }
      data[i++] = (byte) 0xFF;
      for (byte b : v) {
        data[i++] = b;
      }
      data[i++] = (byte) 0xFF;
      for (byte b : v) {
        data[i++] = b;
      }
      fuzzHeaders(data);
    }
    fuzzHeaders(new byte[0]);
  }

  // ------------------------------------------------------------------ inputs

  static final class Input {
    String peer;
    List<String> xff;
    List<String> forwarded;
    String extra;

    /** Bytes as ISO-8859-1; 0xFF separates fields peer|xff|forwarded|extra, 0xFE separates lines. */
    static Input decode(byte[] data) {
      List<List<String>> fields = new ArrayList<>();
      List<String> lines = new ArrayList<>();
      StringBuilder cur = new StringBuilder();
      for (byte b : data) {
        int u = b & 0xff;
        if (u == 0xFF) {
          lines.add(cur.toString());
          fields.add(lines);
          lines = new ArrayList<>();
          cur.setLength(0);
        } else if (u == 0xFE) {
          lines.add(cur.toString());
          cur.setLength(0);
        } else if (u == 0xF0) {
          cur.append('\uff11');
        } else if (u == 0xF1) {
          cur.append('\ud800');
        } else {
          cur.append((char) u);
        }
      }
      lines.add(cur.toString());
      fields.add(lines);
      Input in = new Input();
      in.peer = fields.get(0).get(0);
      in.xff = fields.size() > 1 ? fields.get(1) : null;
      in.forwarded = fields.size() > 2 ? fields.get(2) : null;
      in.extra = fields.size() > 3 ? String.join("", fields.get(3)) : in.peer;
      return in;
    }

    static final String[] TOKENS = {
      "192.0.2.1", "198.51.100.7", "10.0.0.1", "10.0.0.2", "203.0.113.9", "0.0.0.0", "255.255.255.255",
      "2001:db8::1", "2001:db8:1:2::", "fe80::1", "::1", "::", "::ffff:", "::ffff:1.2.3.4", "fc00::1",
      "[2001:db8::1]", "[::ffff:10.0.0.1]:80", ":443", ":_obf", ":65536", "%eth0", "%", "%25",
      "for=", "For=", "FOR=", "by=10.0.0.1", "proto=https", "host=x", "\"", "\\", "\\\"", ",", ", ", ";",
      "; ", "=", " ", "\t", "unknown", "_hidden", "localhost", "example.com", ":", ".", "[", "]",
      "1", "0", "01", "256", "ffff", "g", "12345", "1.2.3", "/", "..", ".", "%2e", "%2E%2e", "%2F", "%6C",
      ";jsessionid=1", "?q=1", "#f", "\u0000", "\r\n", "\u00e9", "\uff11", "\u0661", "\ud83d\ude00",
      "\ud800", "\u200b", "%%37", "%4",
    };

    static String randomString(Random rnd, int maxTokens) {
      StringBuilder sb = new StringBuilder();
      int n = rnd.nextInt(maxTokens + 1);
      for (int i = 0; i < n; i++) {
        int pick = rnd.nextInt(20);
        if (pick == 0) {
          sb.append((char) rnd.nextInt(0x10000));
        } else if (pick == 1) {
          sb.append((char) (0x20 + rnd.nextInt(0x5f)));
        } else {
          sb.append(TOKENS[rnd.nextInt(TOKENS.length)]);
        }
      }
      if (rnd.nextInt(500) == 0) { // occasionally big
        String unit = sb.length() == 0 ? "," : sb.toString();
        StringBuilder big = new StringBuilder();
        while (big.length() < 20_000) {
          big.append(unit);
        }
        return big.toString();
      }
      return mutate(rnd, sb.toString());
    }

    /** Byte-level mutations of a structured string: delete, duplicate, flip, splice. */
    static String mutate(Random rnd, String s) {
      if (s.isEmpty() || rnd.nextInt(3) != 0) {
        return s;
      }
      StringBuilder sb = new StringBuilder(s);
      int m = 1 + rnd.nextInt(3);
      for (int k = 0; k < m && sb.length() > 0; k++) {
        int at = rnd.nextInt(sb.length());
        switch (rnd.nextInt(4)) {
          case 0:
            sb.deleteCharAt(at);
            break;
          case 1:
            sb.insert(at, sb.charAt(at));
            break;
          case 2:
            sb.setCharAt(at, (char) (sb.charAt(at) ^ (1 << rnd.nextInt(8))));
            break;
          default:
            sb.insert(at, TOKENS[rnd.nextInt(TOKENS.length)]);
            break;
        }
      }
      return sb.toString();
    }

    static List<String> randomLines(Random rnd) {
      int n = rnd.nextInt(6);
      if (n == 5) {
        return null;
      }
      List<String> l = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        l.add(randomString(rnd, 10));
      }
      return l;
    }

    static Input random(Random rnd) {
      Input in = new Input();
      in.peer = rnd.nextInt(4) == 0 ? randomString(rnd, 3) : TOKENS[rnd.nextInt(16)];
      in.xff = randomLines(rnd);
      in.forwarded = randomLines(rnd);
      in.extra = randomString(rnd, 8);
      return in;
    }

    @Override
    public String toString() {
      return "peer=" + HostileHeadersTest.printable(peer) + " xff=" + abbreviate(xff) + " fwd="
          + abbreviate(forwarded) + " extra=" + HostileHeadersTest.printable(extra);
    }

    private static String abbreviate(List<String> l) {
      if (l == null) {
        return "null";
      }
      List<String> out = new ArrayList<>();
      for (String s : l) {
        out.add(HostileHeadersTest.printable(s));
      }
      return out.toString();
    }
  }

  // ------------------------------------------------------------------ invariants

  static final ClientAddressResolver NO_PROXY = HostileHeadersTest.NO_PROXY;
  static final ClientAddressResolver ONE_HOP = HostileHeadersTest.ONE_HOP;
  static final ClientAddressResolver TWO_HOPS = HostileHeadersTest.TWO_HOPS;
  static final ClientAddressResolver CIDRS = HostileHeadersTest.CIDRS;

  static List<String> plus(List<String> lines, String... more) {
    List<String> l = lines == null ? new ArrayList<>() : new ArrayList<>(lines);
    l.addAll(Arrays.asList(more));
    return l;
  }

  static void check(Input in) {
    // literal parsing: never throws; whatever parses round-trips and is never IPv4-mapped IPv6
    for (String s : strings(in)) {
      checkLiteral(IpAddress.tryParse(s));
      checkLiteral(IpAddress.parseHostPort(s));
    }
    // CIDR parsing throws only IllegalArgumentException
    try {
      Cidr c = Cidr.parse(in.extra);
      assertTrue(c.contains(c.network()));
    } catch (IllegalArgumentException expected) {
      // fine
    }
    // client address resolution
    String peerKey = NO_PROXY.resolve(in.peer, null, null);
    HostileHeadersTest.assertWellFormedKey(peerKey);
    assertEquals(peerKey, NO_PROXY.resolve(in.peer, in.xff, in.forwarded));
    for (ClientAddressResolver r : HostileHeadersTest.ALL) {
      String k = r.resolve(in.peer, in.xff, in.forwarded);
      HostileHeadersTest.assertWellFormedKey(k);
      assertEquals(k, r.resolve(in.peer, in.xff, in.forwarded));
    }
    // what the client wrote (all of xff / forwarded) is left of the trusted part: no effect
    String p = "192.0.2.1";
    assertEquals("198.51.100.7", ONE_HOP.resolve(p, plus(in.xff, "198.51.100.7"), in.forwarded));
    assertEquals("198.51.100.7", ONE_HOP.resolve(p, plus(in.xff, "203.0.113.9, 198.51.100.7:80"), null));
    assertEquals("203.0.113.9", TWO_HOPS.resolve(p, plus(in.xff, "203.0.113.9, 10.0.0.2"), null));
    assertEquals("2001:db8::/64", ONE_HOP.resolve(p, null, plus(in.forwarded, "for=\"[2001:db8::7]:1\"")));
    assertEquals("203.0.113.9", TWO_HOPS.resolve(p, null,
        plus(in.forwarded, "for=203.0.113.9;proto=https,for=10.0.0.2")));
    assertEquals("203.0.113.9", CIDRS.resolve("10.0.0.1", plus(in.xff, "203.0.113.9", "10.0.0.2"), null));
    assertEquals("203.0.113.9", CIDRS.resolve("10.0.0.1", null,
        plus(in.forwarded, "for=203.0.113.9, for=\"[fc00::2]:80\"")));
    if (in.xff != null && !in.xff.isEmpty()) {
      List<String> sameLine = new ArrayList<>(in.xff);
      int last = sameLine.size() - 1;
      sameLine.set(last, sameLine.get(last) + ",198.51.100.7");
      assertEquals("198.51.100.7", ONE_HOP.resolve(p, sameLine, null));
    }
    if (in.forwarded != null && !in.forwarded.isEmpty()) {
      List<String> sameLine = new ArrayList<>(in.forwarded);
      int last = sameLine.size() - 1;
      sameLine.set(last, sameLine.get(last) + ", for=\"198.51.100.7:9\"");
      assertEquals("198.51.100.7", ONE_HOP.resolve(p, null, sameLine));
    }
    // path normalisation
    for (String s : new String[] {in.extra, in.peer}) {
      String n = PathNormalizer.normalize(s);
      assertTrue(n.startsWith("/"), n);
      assertEquals(n, PathNormalizer.normalize(n), "idempotent");
      assertFalse(n.contains("//") || n.indexOf('\\') >= 0 || n.indexOf(';') >= 0 || n.indexOf('?') >= 0
          || n.indexOf('#') >= 0, n);
      assertTrue(n.equals("/") || !n.endsWith("/"), n);
      for (String seg : n.substring(1).split("/", -1)) {
        assertFalse(seg.equals(".") || seg.equals(".."), n);
      }
    }
    // composite keys decode back to their parts; hashes are 22 characters
    List<String> parts = Arrays.asList(in.peer, in.extra, null, in.xff == null ? "" : String.join(",", in.xff));
    assertEquals(parts, splitKey(KeyParts.join(parts)));
    assertEquals(KeyHash.LENGTH, KeyHash.hash(in.extra).length());
  }

  static List<String> strings(Input in) {
    List<String> all = new ArrayList<>();
    all.add(in.peer);
    all.add(in.extra);
    for (List<String> l : Arrays.asList(in.xff, in.forwarded)) {
      if (l != null) {
        all.addAll(l);
      }
    }
    return all;
  }

  static void checkLiteral(IpAddress a) {
    if (a == null) {
      return;
    }
    assertEquals(a, IpAddress.parse(a.toString()));
    byte[] b = a.toBytes();
    if (b.length == 16) {
      boolean mapped = b[10] == (byte) 0xff && b[11] == (byte) 0xff;
      for (int i = 0; i < 10; i++) {
        mapped &= b[i] == 0;
      }
      assertFalse(mapped, "IPv4-mapped must be IPv4: " + a);
    }
  }

  /** The inverse of {@link KeyParts#join(List)}: proves the encoding is injective. */
  static List<String> splitKey(String k) {
    List<String> out = new ArrayList<>();
    int i = 0;
    if (k.isEmpty()) {
      return Collections.emptyList();
    }
    while (true) {
      if (k.charAt(i) == '-') {
        out.add(null);
        i++;
      } else {
        int colon = k.indexOf(':', i);
        int len = Integer.parseInt(k.substring(i, colon));
        out.add(k.substring(colon + 1, colon + 1 + len));
        i = colon + 1 + len;
      }
      if (i == k.length()) {
        return out;
      }
      if (k.charAt(i) != '|') {
        fail("bad separator in " + k);
      }
      i++;
    }
  }

  @Test
  void splitKeyInvertsJoin() {
    assertNotNull(splitKey(KeyParts.join("a|b", null, "", "7:x")));
    assertEquals(Arrays.asList("a|b", null, "", "7:x"), splitKey(KeyParts.join("a|b", null, "", "7:x")));
  }
}
