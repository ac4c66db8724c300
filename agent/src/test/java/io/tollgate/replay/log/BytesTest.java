package io.tollgate.replay.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BytesTest {

  @Test
  void findsTheFirstNewlineAtEveryPositionAndAlignment() {
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 2000; round++) {
      byte[] b = new byte[random.nextInt(1, 40)];
      // bytes around '\n' (0x0A) and with the high bit: what the word trick could confuse
      int[] choices = {0x0A, 0x0B, 0x09, 0x8A, 0x00, 0xFF, 0x01, 'a', 'b', 'c'};
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) choices[random.nextInt(choices.length)];
      }
      int from = random.nextInt(b.length);
      int to = random.nextInt(from, b.length + 1);
      int expected = -1;
      for (int i = from; i < to; i++) {
        if (b[i] == '\n') {
          expected = i;
          break;
        }
      }
      assertEquals(expected, Bytes.indexOfNewline(b, from, to));
    }
  }

  @Test
  void theStringCacheGivesEqualStringsAndReusesThem() {
    StringCache cache = new StringCache(16);
    byte[] line = "xx Mozilla/5.0 (X11) yy Mozilla/5.0 (X11) zz é".getBytes(StandardCharsets.UTF_8);
    String first = cache.get(line, 3, 20);
    assertEquals("Mozilla/5.0 (X11)", first);
    assertSame(first, cache.get(line, 24, 41));
    assertEquals("Mozilla/5.0 (X11) yy", cache.get(line, 3, 23));
    assertEquals("", cache.get(line, 3, 3));
    assertEquals("zz é", cache.get(line, 42, line.length));
    for (int i = 0; i < 100; i++) { // collisions replace, never confuse
      byte[] b = ("value number " + i).getBytes(StandardCharsets.UTF_8);
      assertEquals("value number " + i, cache.get(b, 0, b.length));
    }
  }
}
