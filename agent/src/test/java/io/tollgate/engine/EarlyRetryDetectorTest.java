package io.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tollgate.limiters.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The early-retry detector: a key refused again before the {@code Retry-After} it was last given
 * had elapsed is an early retry, with how long it was told and how soon it came back.
 */
class EarlyRetryDetectorTest {

  private final ManualClock clock = new ManualClock(1_000_000_000_000L);
  private final EarlyRetryDetector detector = new EarlyRetryDetector(clock::nowNanos);

  @ParameterizedTest(name = "told {0} s, back after {1} ms: early {2}")
  @CsvSource(delimiter = '|', value = {
      // told | back after ms | early? | reported after (s)
      "12     | 200           | true   | 0.2",
      "12     | 0             | true   | 0.0",
      "12     | 11999         | true   | 11.999",
      "12     | 12000         | false  | -",
      "12     | 60000         | false  | -",
      "1      | 999           | true   | 0.999",
      "1      | 1000          | false  | -",
      "3600   | 1800000       | true   | 1800.0",
  })
  void aKeyRefusedAgainBeforeItsWaitIsAnEarlyRetry(
      long told, long backAfterMillis, boolean early, String after) {
    assertNull(detector.refused("api", "203.0.113.7", told), "the first refusal");
    clock.advanceMillis(backAfterMillis);

    EarlyRetryDetector.EarlyRetry retry = detector.refused("api", "203.0.113.7", 5);

    assertEquals(early, retry != null);
    if (early) {
      assertEquals(told, retry.toldSeconds, "the wait it had been told, not the new one");
      assertEquals(Double.parseDouble(after), retry.afterNanos / 1e9, 1e-9);
    }
  }

  @Test
  void eachRefusalTellsANewWaitThatTheNextRetryIsMeasuredAgainst() {
    detector.refused("api", "k", 10);
    clock.advanceMillis(9_000);
    assertNotNull(detector.refused("api", "k", 2), "9 s after being told 10 s");
    clock.advanceMillis(1_500);
    EarlyRetryDetector.EarlyRetry retry = detector.refused("api", "k", 2);
    assertNotNull(retry, "1.5 s after being told 2 s");
    assertEquals(2, retry.toldSeconds);
    assertEquals(1_500_000_000L, retry.afterNanos);
    clock.advanceMillis(2_000);
    assertNull(detector.refused("api", "k", 2), "waited as told");
  }

  @ParameterizedTest(name = "refused by {0} for {1}, then by {2} for {3}: early {4}")
  @CsvSource(delimiter = '|', value = {
      "api   | 203.0.113.7 | api   | 203.0.113.7 | true",
      "api   | 203.0.113.7 | api   | 203.0.113.8 | false",
      "api   | 203.0.113.7 | login | 203.0.113.7 | false",
      "login | ann         | login | ann         | true",
      // keys whose 32-bit hashes are the same (one bucket, one slot hash): told apart
      "api   | Aa          | api   | BB          | false",
      "api   | AaBB        | api   | BBAa        | false",
      "api   | AaAaAaAaAa  | api   | BBBBBBBBBB  | false",
      "api   | BBBBBBBBBB  | api   | BBBBBBBBBB  | true",
  })
  void aWaitIsOneRulesForOneKey(String rule, String key, String laterRule, String laterKey,
      boolean early) {
    detector.refused(rule, key, 60);
    clock.advanceMillis(100);
    assertEquals(early, detector.refused(laterRule, laterKey, 60) != null);
  }

  @ParameterizedTest(name = "{0} slots growing to {1}")
  @CsvSource({"4, 4", "4, 64", "2, 2048"})
  void moreKeysThanSlotsForgetSomeButNeverCountOneWrongly(int slots, int maxSlots) {
    EarlyRetryDetector small = new EarlyRetryDetector(slots, maxSlots, clock::nowNanos);
    for (int i = 0; i < 100; i++) {
      assertNull(small.refused("api", "10.0.0." + i, 60), "10.0.0." + i + " first refused");
    }
    clock.advanceMillis(60_000);
    int early = 0;
    for (int i = 0; i < 100; i++) {
      if (small.refused("api", "10.0.0." + i, 60) != null) {
        early++;
      }
    }
    assertEquals(0, early, "every wait was over: none came back early, remembered or not");
  }

  @Test
  void aKeyThatStormsKeepsItsSlotAgainstKeysWhoseWaitIsOver() {
    EarlyRetryDetector small = new EarlyRetryDetector(2, clock::nowNanos);
    int early = 0;
    for (int i = 0; i < 50; i++) {
      // a key refused once, its wait over by the next round
      small.refused("api", "once-" + i, 1);
      if (small.refused("api", "storm", 30) != null) {
        early++;
      }
      clock.advanceMillis(2_000);
    }
    assertEquals(49, early, "every retry of the storming key but its first refusal");
  }

  /**
   * A key refused again with the wait it was told before keeps its slot and moves its time on in
   * place; told another wait, its slot is replaced: either way each retry is measured against the
   * refusal before it and the wait told then, and the key keeps one log line.
   */
  @ParameterizedTest(name = "told {0} s, back {1} ms, told {2} s, back {3} ms: early {4}, {5}")
  @CsvSource(delimiter = '|', value = {
      // told | back ms | told again | back ms | 2nd early | 3rd early | 3rd told | 3rd after (s)
      "60     | 100     | 60         | 100     | true      | true      | 60       | 0.1",
      "60     | 100     | 30         | 100     | true      | true      | 30       | 0.1",
      "60     | 100     | 60         | 60000   | true      | false     | -        | -",
      "60     | 100     | 1          | 1000    | true      | false     | -        | -",
      "1      | 2000    | 1          | 100     | false     | true      | 1        | 0.1",
      "1      | 2000    | 1          | 1000    | false     | false     | -        | -",
      "1      | 2000    | 5          | 4999    | false     | true      | 5        | 4.999",
      "3600   | 1       | 3600       | 1       | true      | true      | 3600     | 0.001",
  })
  void aWaitToldAgainIsMeasuredFromTheLatestRefusal(long told, long backMillis, long toldAgain,
      long againMillis, boolean secondEarly, boolean thirdEarly, String thirdTold,
      String thirdAfter) {
    assertNull(detector.refused("api", "203.0.113.7", told), "the first refusal");
    clock.advanceMillis(backMillis);
    EarlyRetryDetector.EarlyRetry second = detector.refused("api", "203.0.113.7", toldAgain);
    assertEquals(secondEarly, second != null, "the second refusal");
    clock.advanceMillis(againMillis);

    EarlyRetryDetector.EarlyRetry third = detector.refused("api", "203.0.113.7", toldAgain);

    assertEquals(thirdEarly, third != null, "the third refusal");
    if (thirdEarly) {
      assertEquals(Long.parseLong(thirdTold), third.toldSeconds);
      assertEquals(Double.parseDouble(thirdAfter), third.afterNanos / 1e9, 1e-9);
      if (second != null) {
        assertSame(second.line, third.line, "one log line per key");
      }
    }
  }

  @Test
  void aStormOfOneKeyToldTheSameWaitIsCountedOnEveryRetry() {
    detector.refused("api", "storm", 30);
    EarlyRetryDetector.EarlyRetry first = null;
    for (int i = 1; i <= 1_000; i++) {
      clock.advanceMillis(7);
      EarlyRetryDetector.EarlyRetry retry = detector.refused("api", "storm", 30);
      assertNotNull(retry, "retry " + i);
      assertEquals(7_000_000L, retry.afterNanos, "measured from the refusal just before");
      first = first == null ? retry : first;
      assertSame(first.line, retry.line);
    }
  }

  /**
   * A flood's refusals: each client's {@code Retry-After} a second lower each second (the same
   * end of its wait), every refusal an early retry, measured from the refusal just before and the
   * wait told then, with one log line per key however its wait counts down.
   */
  @Test
  void aWaitCountingDownIsMeasuredFromEachRefusalAndKeepsTheKeysLine() {
    long[] backMillis = {300, 700, 450, 550, 1000, 10, 990};
    detector.refused("api", "client-7", 3600);
    long elapsed = 0;
    long told = 3600;
    EarlyRetryDetector.EarlyRetry first = null;
    for (long back : backMillis) {
      clock.advanceMillis(back);
      elapsed += back;
      long toldNow = 3600 - elapsed / 1000; // the seconds left to the hour, rounded up
      EarlyRetryDetector.EarlyRetry retry = detector.refused("api", "client-7", toldNow);
      assertNotNull(retry, back + " ms after being told " + told + " s");
      assertEquals(told, retry.toldSeconds, "the wait told by the refusal before");
      assertEquals(back * 1_000_000L, retry.afterNanos);
      first = first == null ? retry : first;
      assertSame(first.line, retry.line, "one log line per key");
      told = toldNow;
    }
  }

  /**
   * More keys told to wait than the table holds: it doubles until they fit (then every key's
   * early retries are counted), never past its bound, however many keys come; a table that holds
   * its keys stays as it is.
   */
  @ParameterizedTest(name = "{0} keys, {1} slots growing to {2}: {3} slots, {4} counted early")
  @CsvSource(delimiter = '|', value = {
      // keys | first slots | at most | slots then | early retries counted in the tenth round
      "16     | 8           | 64      | 32         | 16", // doubled until they fit
      "1000   | 8           | 64      | 64         | -",
      "16     | 8           | 8       | 8          | -",
      "4      | 8           | 64      | 8          | 4",
  })
  void aTableTooSmallForTheKeysToldToWaitGrowsToItsBound(int keys, int slots, int maxSlots,
      int slotsThen, String earlyThen) {
    EarlyRetryDetector growing = new EarlyRetryDetector(slots, maxSlots, clock::nowNanos);
    int early = 0;
    for (int round = 0; round < 10; round++) {
      early = 0;
      for (int i = 0; i < keys; i++) {
        if (growing.refused("api", "10.0.0." + i, 60) != null) {
          early++;
        }
      }
      clock.advanceMillis(100);
    }
    assertEquals(slotsThen, growing.slots());
    if (!earlyThen.equals("-")) {
      assertEquals(Integer.parseInt(earlyThen), early);
    }
  }

  /** What one {@code long} keeps of a refusal: its time to the millisecond, its wait to 388 days. */
  @ParameterizedTest(name = "told {0} s, back after {1} ms: early {2}, told {3}")
  @CsvSource(delimiter = '|', value = {
      // told    | back after ms | early? | told as reported
      "31622400  | 1000          | true   | 31622400", // a year's calendar quota: kept whole
      "40000000  | 1000          | true   | 33554431", // longer than kept: the longest kept
      "1         | 1             | true   | 1",
  })
  void aRefusalIsKeptToTheMillisecondAndItsWaitUpTo388Days(
      long told, long backMillis, boolean early, long toldReported) {
    detector.refused("api", "k", told);
    clock.advanceMillis(backMillis);
    EarlyRetryDetector.EarlyRetry retry = detector.refused("api", "k", 5);
    assertEquals(early, retry != null);
    assertEquals(toldReported, retry.toldSeconds);
    assertEquals(backMillis * 1_000_000L, retry.afterNanos);
  }

  @Test
  void aReadingFromBeforeTheDetectorWasMadeCounts() {
    long before = clock.nowNanos() - 5_000_000_000L; // the caller read its clock 5 s earlier
    EarlyRetryDetector made = new EarlyRetryDetector(clock::nowNanos);
    assertNull(made.refused("api", "k", 60, before));
    assertNotNull(made.refused("api", "k", 60, before + 1_000_000_000L));
  }

  @Test
  void theTableIsAPowerOfTwo() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new EarlyRetryDetector(1000, clock::nowNanos));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new EarlyRetryDetector(8, 100, clock::nowNanos));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new EarlyRetryDetector(64, 8, clock::nowNanos));
  }
}
