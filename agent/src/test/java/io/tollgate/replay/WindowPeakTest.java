package io.tollgate.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.http.QueryStrings;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each key's peak within any period, against counting every window by brute force. */
class WindowPeakTest {

  @Test
  void thePeakIsTheMostUnitsInAnyWindowEndingAtARequest() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      int n = 1 + random.nextInt(300);
      long period = 1 + random.nextInt(5_000);
      long[] times = new long[n];
      long[] costs = new long[n];
      long t = random.nextInt(1000);
      for (int i = 0; i < n; i++) {
        t += random.nextInt(4) == 0 ? 0 : random.nextInt(200);
        times[i] = t;
        costs[i] = random.nextInt(10) == 0 ? random.nextInt(7) : 1;
      }
      WindowPeak peak = new WindowPeak();
      for (int i = 0; i < n; i++) {
        peak.add(times[i], costs[i], period);
      }
      long expected = 0;
      for (int i = 0; i < n; i++) {
        long units = 0;
        for (int j = 0; j <= i; j++) {
          if (times[i] - times[j] < period) {
            units += costs[j];
          }
        }
        expected = Math.max(expected, units);
      }
      assertEquals(expected, peak.peak(), "round " + round);
    }
  }

  /**
   * Requests logged at one instant are one entry: a burst of any size in one second of an NCSA log
   * holds one time, where one entry per request once took a million-line second past the heap.
   */
  @Test
  void requestsAtTheSameTimeHoldOneEntryAndTheSamePeak() {
    long second = 1_000_000_000L;
    long minute = 60 * second;
    WindowPeak peak = new WindowPeak();
    for (int i = 0; i < 1_000_000; i++) {
      peak.add(7 * second, 1, minute);
    }
    assertEquals(1, peak.heldTimes(), "a million requests of one second");
    assertEquals(1_000_000, peak.peak());

    peak.add(8 * second, 3, minute);
    peak.add(8 * second, 0, minute);
    peak.add(8 * second, 1, minute);
    assertEquals(2, peak.heldTimes(), "one entry per second, costs summed");
    assertEquals(1_000_004, peak.peak());

    peak.add(7 * second + minute, 1, minute);
    assertEquals(2, peak.heldTimes(), "the first second left the window whole");
    assertEquals(1_000_004, peak.peak());
  }

  @Test
  void percentilesAreByNearestRank() {
    long[] sorted = new long[1000];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(990, LimitSuggestion.nearestRank(sorted, 99, 100));
    assertEquals(999, LimitSuggestion.nearestRank(sorted, 999, 1000));
    assertEquals(7, LimitSuggestion.nearestRank(new long[] {7}, 99, 100));
    assertEquals(0, LimitSuggestion.nearestRank(new long[0], 99, 100));
  }

  @Test
  void theDistinctEstimateIsWithinAFewPercent() {
    for (int n : new int[] {1, 10, 1000, 200_000}) {
      DistinctEstimate estimate = new DistinctEstimate();
      for (int i = 0; i < n; i++) {
        estimate.add("key-" + i);
        estimate.add("key-" + i);
      }
      assertEquals(n, estimate.estimate(), Math.max(1, n * 0.03), "n = " + n);
    }
  }

  @Test
  void queryParametersAreReadAsAContainerReadsThem() {
    assertEquals("a b", QueryStrings.first("x=1&user=a+b&user=c", "user"));
    assertEquals("é/", QueryStrings.first("user=%C3%A9%2F", "user"));
    assertEquals("", QueryStrings.first("user&x=1", "user"));
    assertEquals("%zz", QueryStrings.first("user=%zz", "user"));
    assertEquals(null, QueryStrings.first("users=1", "user"));
    assertEquals(null, QueryStrings.first(null, "user"));
    assertEquals("v", Cookies.value("a=1; sid=\"v\"", "sid"));
  }
}
