package io.tollgate.diagnostics.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The counters with the filter in front of them keep Space-Saving's guarantees, whatever the
 * stream, and a flood of many keys seldom replaces a counter.
 */
class SpaceSavingTest {

  /** Counts the counters made, each a replacement (or a free place taken). */
  private static final class Made {
    long counters;
  }

  private static Errored newCounter(String key, long inherited, Made made) {
    made.counters++;
    return new Errored(key, inherited + 1, inherited);
  }

  private static final class Errored extends SpaceSaving.Counter {
    private static final long serialVersionUID = 1L;
    final long error;

    Errored(String key, long count, long error) {
      super(key, count);
      this.error = error;
    }
  }

  /** A stream: the key of the i-th occurrence, as a number. */
  private static final Object[][] STREAMS = {
    // name, capacity, occurrences, the i-th occurrence's key
    {"a uniform flood of 10,000 keys", 10, 300_000, rnd(7, r -> r.nextInt(10_000))},
    {"a uniform flood into 20 counters", 20, 300_000, rnd(8, r -> r.nextInt(10_000))},
    {"three heavy keys among one-off ones", 5, 50_000,
        rnd(29, r -> r.nextInt(4) == 0 ? r.nextInt(3) : 1_000_000 + r.nextInt(1 << 30))},
    {"a skewed stream (key i about 1/i as often)", 10, 200_000,
        rnd(3, r -> (int) Math.floor(Math.pow(100_000, r.nextDouble())))},
    {"a key every third occurrence, one-offs between", 10, 30_000,
        (IntUnaryOperator) i -> i % 3 == 0 ? -1 : i},
    {"fewer keys than counters", 10, 1_000, (IntUnaryOperator) i -> i % 7},
    {"one counter", 1, 10_000, rnd(5, r -> r.nextInt(2) == 0 ? 0 : r.nextInt(1000))},
  };

  private static IntUnaryOperator rnd(long seed, java.util.function.ToIntFunction<Random> key) {
    Random random = new Random(seed);
    return i -> key.applyAsInt(random);
  }

  @Test
  void everyCountBoundsItsKeysTrueCountAndEveryKeyAboveNOverCapacityIsCounted() {
    for (Object[] stream : STREAMS) {
      String name = (String) stream[0];
      int capacity = (Integer) stream[1];
      int n = (Integer) stream[2];
      IntUnaryOperator keyOf = (IntUnaryOperator) stream[3];
      SpaceSaving<Errored> counters = new SpaceSaving<>(capacity);
      Map<String, Long> truth = new HashMap<>();
      Made made = new Made();
      for (int i = 0; i < n; i++) {
        String key = "k" + keyOf.applyAsInt(i);
        truth.merge(key, 1L, Long::sum);
        counters.add(key, key.hashCode(), SpaceSavingTest::newCounter, made);
      }
      List<Errored> all = counters.all();
      assertEquals(Math.min(capacity, truth.size()), all.size(), name);
      long sum = 0;
      long smallest = Long.MAX_VALUE;
      for (Errored c : all) {
        long came = truth.get(c.key);
        assertTrue(c.sum() >= came, name + ": " + c.key + " counted " + c.sum() + ", came " + came);
        assertTrue(c.sum() - c.error <= came,
            name + ": " + c.key + " counted " + c.sum() + " (+/-" + c.error + "), came " + came);
        sum += c.sum();
        smallest = Math.min(smallest, c.sum());
      }
      assertTrue(sum <= n, name + ": the counts add up to " + sum + ", more than " + n);
      for (Errored c : all) {
        assertTrue(c.error <= smallest, name + ": an error " + c.error + " past the smallest count");
      }
      for (Map.Entry<String, Long> key : truth.entrySet()) {
        if (key.getValue() > n / capacity) {
          assertNotNull(find(all, key.getKey()),
              name + ": " + key.getKey() + " came " + key.getValue() + " times, not counted");
        }
      }
    }
  }

  /**
   * A uniform flood of 10,000 keys against 10 counters: Space-Saving alone replaced a counter
   * (a lock, a scan of the counts, a new counter) on nearly every occurrence; with the filter in
   * front (16 cells per counter), fewer than one in ten (about one in 13).
   */
  @Test
  void aFloodOfManyKeysSeldomReplacesACounter() {
    SpaceSaving<Errored> counters = new SpaceSaving<>(10);
    Made made = new Made();
    Random random = new Random(11);
    int n = 300_000;
    for (int i = 0; i < n; i++) {
      String key = "client-" + random.nextInt(10_000);
      counters.add(key, key.hashCode(), SpaceSavingTest::newCounter, made);
    }
    assertTrue(made.counters < n / 10,
        made.counters + " counters made for " + n + " occurrences");
  }

  private static Errored find(List<Errored> all, String key) {
    for (Errored c : all) {
      if (c.key.equals(key)) {
        return c;
      }
    }
    return null;
  }
}
