package io.tollgate.diagnostics.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeavyKeysTest {

  @Test
  void exactWhileThereIsRoom() {
    HeavyKeys keys = new HeavyKeys(3);
    for (int i = 0; i < 5; i++) {
      keys.add("a");
    }
    keys.add("b");
    keys.add("b");
    keys.add("c");
    List<HeavyKeys.Entry> top = keys.top();
    assertEquals(3, top.size());
    assertEquals("a", top.get(0).key);
    assertEquals(5, top.get(0).count);
    assertEquals("b", top.get(1).key);
    assertEquals(2, top.get(1).count);
    assertEquals(0, top.get(1).error);
    assertEquals("c", top.get(2).key);
  }

  /**
   * The keys are spread over stripes by hash, each with its own counters and lock: whichever
   * stripes they fall in, the {@code capacity} heaviest keys of a flood (each heavier than all the
   * lighter ones together) are shown, heaviest first, and no more than {@code capacity} keys.
   */
  @Test
  void theHeaviestAreShownWhateverStripesTheyFallIn() {
    int[][] cases = {
      // capacity, keys added (key i added 2^i times)
      {1, 6}, {2, 8}, {3, 10}, {5, 10}, {10, 12},
    };
    for (int[] c : cases) {
      int capacity = c[0];
      int keys = c[1];
      HeavyKeys heavy = new HeavyKeys(capacity);
      for (int i = 0; i < keys; i++) {
        for (int n = 0; n < 1 << i; n++) {
          heavy.add("10.0.0." + i);
        }
      }
      List<HeavyKeys.Entry> top = heavy.top();
      assertEquals(capacity, top.size(), "capacity " + capacity + ": " + top);
      for (int rank = 0; rank < capacity; rank++) {
        int i = keys - 1 - rank;
        assertEquals("10.0.0." + i, top.get(rank).key, "capacity " + capacity + ": " + top);
        assertTrue(top.get(rank).count >= 1 << i, top.toString());
      }
    }
  }

  @Test
  void aHeavyHitterSurvivesAFloodOfOneOffKeys() {
    HeavyKeys keys = new HeavyKeys(10);
    for (int i = 0; i < 10_000; i++) {
      keys.add("one-off-" + i);
      if (i % 3 == 0) {
        keys.add("attacker");
      }
    }
    List<HeavyKeys.Entry> top = keys.top();
    assertEquals(10, top.size(), "bounded");
    assertEquals("attacker", top.get(0).key);
    assertTrue(top.get(0).count >= 3334, top.toString());
  }

  @Test
  void keysAreShortenedAndCleaned() {
    HeavyKeys keys = new HeavyKeys(2);
    StringBuilder longKey = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      longKey.append('k');
    }
    keys.add(longKey.toString());
    keys.add("evil\"\n\\key");
    for (HeavyKeys.Entry entry : keys.top()) {
      assertTrue(entry.key.length() <= HeavyKeys.MAX_KEY_CHARS, entry.key);
      assertTrue(entry.key.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\'),
          entry.key);
    }
    assertEquals("-", HeavyKeys.display(null));
  }

  /**
   * A flood from several threads at once: the heavy key, counted without a lock, loses no
   * increment, and the one-off keys around it never push it out.
   */
  @Test
  void aFloodFromManyThreadsCountsTheHeavyKeyExactly() throws Exception {
    HeavyKeys keys = new HeavyKeys(4);
    for (int i = 0; i < 100; i++) {
      keys.add("hot");
    }
    int threads = 4;
    int each = 20_000;
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    java.util.List<Thread> running = new java.util.ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < each; i++) {
          keys.add("hot");
          if (i % 10 == 0) {
            keys.add("one-off-" + id + "-" + i);
          }
        }
      });
      thread.start();
      running.add(thread);
    }
    start.countDown();
    for (Thread thread : running) {
      thread.join();
    }
    HeavyKeys.Entry top = keys.top().get(0);
    assertEquals("hot", top.key);
    assertEquals(100 + threads * each, top.count);
    assertEquals(0, top.error);
  }
  /**
   * The Space-Saving guarantee, under a flood of one-off keys that replace a counter nearly every
   * time: every key shown is counted at least as often as it came, and at most its error more.
   */
  @Test
  void everyCountShownBoundsTheTrueCount() {
    java.util.Map<String, Long> truth = new java.util.HashMap<>();
    HeavyKeys keys = new HeavyKeys(5);
    java.util.Random random = new java.util.Random(29);
    for (int i = 0; i < 50_000; i++) {
      String key = random.nextInt(4) == 0 ? "heavy-" + random.nextInt(3) : "client-" + i;
      truth.merge(key, 1L, Long::sum);
      keys.add(key);
    }
    List<HeavyKeys.Entry> top = keys.top();
    assertEquals(5, top.size(), top.toString());
    for (HeavyKeys.Entry entry : top) {
      long counted = truth.get(entry.key);
      assertTrue(entry.count >= counted, entry + " came " + counted);
      assertTrue(entry.count - entry.error <= counted, entry + " came " + counted);
    }
    java.util.Set<String> heaviest = new java.util.HashSet<>();
    for (int rank = 0; rank < 3; rank++) {
      heaviest.add(top.get(rank).key);
    }
    assertEquals(java.util.Set.of("heavy-0", "heavy-1", "heavy-2"), heaviest, top.toString());
  }

  /** A key that takes another's counter is shown cut and cleaned too, as the metrics read it. */
  @Test
  void aKeyThatReplacesAnotherIsShownShortAndClean() {
    HeavyKeys keys = new HeavyKeys(1);
    for (int i = 0; i < 100; i++) {
      keys.add("filler-" + i); // every stripe full
    }
    String longKey = "evil\"\n" + "k".repeat(100);
    for (int i = 0; i < 200; i++) {
      keys.add(longKey);
    }
    HeavyKeys.Entry top = keys.top().get(0);
    assertEquals(HeavyKeys.display(longKey), top.key);
    assertEquals(HeavyKeys.MAX_KEY_CHARS, top.key.length());
    assertTrue(top.key.startsWith("evil??k"), top.key);
  }
}
