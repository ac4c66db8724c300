package io.tollgate.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyHashTest {

  static String reference(String s) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(d, 16));
  }

  @Test
  void isTruncatedSha256InBase64UrlWithoutPadding() throws Exception {
    // SHA-256("abc") = ba7816bf 8f01cfea 414140de 5dae2223 ...
    assertEquals("ungWv48Bz-pBQUDeXa4iIw", KeyHash.hash("abc"));
    for (String s : new String[] {"", "a", "sk_live_0123456789abcdef", "caf\u00e9", "\u20ac\ud83d\ude00",
      repeat('x', 255), repeat('x', 256), repeat('x', 257), repeat('\u00e9', 300)}) {
      String h = KeyHash.hash(s);
      assertEquals(reference(s), h, s);
      assertEquals(KeyHash.LENGTH, h.length());
      assertTrue(h.matches("[A-Za-z0-9_-]{22}"), h);
    }
  }

  @Test
  void differentSecretsDiffer() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 10000; i++) {
      seen.add(KeyHash.hash("key-" + i));
    }
    assertEquals(10000, seen.size());
    assertNotEquals(KeyHash.hash("a"), KeyHash.hash("A"));
  }

  @Test
  void rejectsNull() {
    assertThrows(NullPointerException.class, () -> KeyHash.hash(null));
  }

  @Test
  void isThreadSafe() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      ConcurrentHashMap<String, String> expected = new ConcurrentHashMap<>();
      for (int i = 0; i < 200; i++) {
        String s = "secret-" + i + (i % 3 == 0 ? "\u00e9" : "") + repeat('z', i * 2);
        expected.put(s, reference(s));
      }
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        fs.add(pool.submit(() -> {
          for (int round = 0; round < 50; round++) {
            for (java.util.Map.Entry<String, String> e : expected.entrySet()) {
              assertEquals(e.getValue(), KeyHash.hash(e.getKey()));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static String repeat(char c, int n) {
    char[] a = new char[n];
    Arrays.fill(a, c);
    return new String(a);
  }
}
