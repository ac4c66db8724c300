package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * adaptive-concurrency as a pure function of a manual clock and the samples it is given: a
 * simulated app, each row a load and a latency, and where the limit goes.
 */
class AdaptiveConcurrencyTest {

  private static final long MS = 1_000_000L;

  /** A simulated app under the limiter, one window per cycle, on a manual clock. */
  static final class Sim {
    final AdaptiveConcurrency algorithm;
    final AdaptiveConcurrency.State state;
    final Verdict verdict = new Verdict();
    long now = 1_000_000_000_000L;
    int lowest;
    int highest;
    final List<Integer> told = new ArrayList<>();

    Sim(int min, int initial, int max) {
      this(min, initial, max, false);
    }

    Sim(int min, int initial, int max, boolean shadow) {
      algorithm = new AdaptiveConcurrency(min, initial, max, 0, shadow, (from, s) -> {
        told.add(s.limit());
        return true;
      });
      state = algorithm.newState();
      lowest = highest = state.limit();
    }

    /** The time between two cycles' first requests, besides the requests' own latency. */
    long gapNanos = 200 * MS;
    long refused;
    /** Requests admitted that never end (a body sent a byte a second): they hold their permits. */
    int stuck;

    /** Admits {@code n} requests that never end. */
    void stick(int n) {
      for (int i = 0; i < n; i++) {
        algorithm.decide(state, now, 1, verdict);
        assertTrue(verdict.allowed, "stuck request " + (i + 1) + " admitted");
        stuck++;
      }
    }

    /**
     * One window: {@code demand} requests arrive at once (as many as the limit admits run), and
     * complete, each after {@code latency(admitted)} (on the clock: a request completes its
     * latency after its admission) and failed or not; batches follow one another until the window
     * has its samples; the next cycle starts {@link #gapNanos} later (longer than the windows
     * here), so its first completion closes this window: the limit moves then.
     */
    int cycle(int demand, IntToLongFunction latency, boolean failed) {
      now += gapNanos;
      int completed = 0;
      for (int batch = 0; batch < 20; batch++) {
        int admitted = 0;
        for (int i = 0; i < demand; i++) {
          algorithm.decide(state, now, 1, verdict);
          if (verdict.allowed) {
            admitted++;
          } else {
            refused++;
          }
        }
        int running = state.inFlight() - stuck; // in shadow mode, the refused run too
        long each = latency.applyAsLong(running);
        now += each;
        for (int i = 0; i < running; i++) {
          algorithm.complete(state, now, 1, each, failed);
        }
        completed += running;
        if (completed >= AdaptiveConcurrency.WINDOW_MIN_SAMPLES) {
          break;
        }
      }
      lowest = Math.min(lowest, state.limit());
      highest = Math.max(highest, state.limit());
      return completed;
    }

    int run(int cycles, int demand, IntToLongFunction latency) {
      for (int i = 0; i < cycles; i++) {
        cycle(demand, latency, false);
      }
      return state.limit();
    }

    /** Cycles for {@code seconds} of simulated time. */
    int runFor(double seconds, int demand, IntToLongFunction latency) {
      long end = now + (long) (seconds * 1_000 * MS);
      while (now - end < 0) {
        cycle(demand, latency, false);
      }
      return state.limit();
    }
  }

  /** Latency that does not depend on load. */
  static IntToLongFunction steady(long ms) {
    return inFlight -> ms * MS;
  }

  /** An app with {@code capacity} workers of {@code ms} each: beyond them, requests queue. */
  static IntToLongFunction queueing(long ms, int capacity) {
    return inFlight -> ms * MS * Math.max(capacity, inFlight) / capacity;
  }

  @Test
  void startsAtInitialAndRefusesOverItAtOnce() {
    Sim sim = new Sim(4, 20, 200);
    assertEquals(20, sim.state.limit());
    for (int i = 0; i < 20; i++) {
      sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
      assertTrue(sim.verdict.allowed, "request " + (i + 1));
    }
    sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    assertFalse(sim.verdict.allowed);
    assertEquals(20, sim.state.inFlight(), "a refused request takes nothing");
    sim.algorithm.release(sim.state, sim.now, 1);
    sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    assertTrue(sim.verdict.allowed, "a permit given back is taken again");
  }

  @Test
  void steadyLatencyUnderLoadGrowsTheLimitToMax() {
    Sim sim = new Sim(4, 20, 200);
    assertEquals(200, sim.run(300, 1_000, steady(10)));
    assertEquals(200, sim.highest, "never above max");
  }

  @Test
  void latencyRisingWithLoadHoldsTheLimitNearWhatTheAppCanServe() {
    // 40 workers: beyond 40 in flight, requests queue and latency rises with them; the limit
    // balances where limit - sqrt(limit) = 40 (about 47: 1.17 x the base latency)
    for (int workers : new int[] {8, 40, 100}) {
      Sim sim = new Sim(4, 20, 200);
      sim.runFor(60, 1_000, queueing(10, workers));
      sim.lowest = sim.highest = sim.state.limit();
      for (int minute = 1; minute <= 10; minute++) {
        int limit = sim.runFor(60, 1_000, queueing(10, workers));
        assertTrue(limit >= workers && limit <= 1.5 * workers,
            workers + " workers, minute " + minute + ": no creep: " + limit);
      }
      assertTrue(sim.lowest >= workers && sim.highest <= 1.5 * workers,
          workers + " workers: within [w, 1.5 w] all along (p99 <= 1.5 x base): "
              + sim.lowest + ".." + sim.highest);
      assertEquals(10 * MS, sim.state.noLoadLatencyNanos(), "measured at min, under the workers");
    }
    Sim sim = new Sim(4, 20, 200);
    sim.runFor(60, 1_000, queueing(10, 40));
    for (int minute = 1; minute <= 10; minute++) {
      int limit = sim.runFor(60, 1_000, queueing(10, 40));
      assertTrue(limit >= 40 && limit <= 56, "minute " + minute + ": [w, 1.4 w]: " + limit);
    }
  }

  @Test
  void aColdFirstSecondIsCorrectedAtTheFirstProbe() {
    Sim sim = new Sim(4, 20, 200);
    // the JVM's first second: every request twice as slow; 8 workers
    IntToLongFunction cold = inFlight -> 2 * queueing(10, 8).applyAsLong(inFlight);
    sim.runFor(1, 1_000, cold);
    long seeded = sim.state.noLoadLatencyNanos();
    assertTrue(seeded >= 40 * MS, "seeded from the cold first window: " + seeded / MS + " ms");
    sim.runFor(1.5, 1_000, queueing(10, 8));
    assertTrue(sim.state.noLoadLatencyNanos() >= 20 * MS,
        "warm, loaded windows do not lower it: " + sim.state.noLoadLatencyNanos() / MS + " ms");
    sim.runFor(1, 1_000, queueing(10, 8));
    assertEquals(10 * MS, sim.state.noLoadLatencyNanos(), "the first probe, after 2 s, measures it");
    int limit = sim.runFor(30, 1_000, queueing(10, 8));
    assertTrue(limit >= 8 && limit <= 12, "settled near the 8 workers: " + limit);
  }

  @Test
  void anAppDurablySlowerIsBackNearItsWorkersWithinTenSeconds() {
    for (int workers : new int[] {8, 100}) {
      Sim sim = new Sim(4, 20, 200);
      int settled = sim.runFor(120, 1_000, queueing(10, workers));
      assertTrue(settled >= workers && settled <= 1.5 * workers, "near the workers: " + settled);
      // a slow deploy: every request takes twice as long, with the same workers
      sim.lowest = settled;
      int after = sim.runFor(10, 1_000, queueing(20, workers));
      assertTrue(sim.lowest < settled, workers + ": it shrank at first: " + sim.lowest);
      assertTrue(sim.lowest >= 4, "never under min");
      assertTrue(after >= workers && after <= 1.5 * workers,
          workers + " workers: 10 s later it is back near them: " + after + " (lowest "
              + sim.lowest + ")");
      assertEquals(20 * MS, sim.state.noLoadLatencyNanos(), "re-measured");
      sim.lowest = sim.highest = after;
      sim.runFor(120, 1_000, queueing(20, workers));
      assertTrue(sim.lowest >= workers && sim.highest <= 1.5 * workers,
          "and stays there: " + sim.lowest + ".." + sim.highest);
    }
  }

  @Test
  void aSlowDownThatDoesNotDependOnLoadIsLearntAtTheNextProbe() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(300, 1_000, steady(10));
    assertEquals(200, sim.state.limit());
    // twice the latency at 200 in flight: congestion or a slower app, it cannot tell at once
    sim.lowest = 200;
    sim.runFor(10, 1_000, steady(20));
    assertTrue(sim.lowest < 200, "shrank at first: " + sim.lowest);
    assertEquals(20 * MS, sim.state.noLoadLatencyNanos());
    assertEquals(200, sim.runFor(60, 1_000, steady(20)), "then, the probe having measured 20 ms");
  }

  @Test
  void aProbeAdmitsMinUntilItHasItsSamplesThenTheLearntLimitAgain() {
    Sim sim = new Sim(4, 20, 200);
    int probes = 0;
    boolean was = false;
    for (int i = 0; i < 5 * 60 * 5; i++) { // 5 minutes
      sim.cycle(1_000, queueing(10, 40), false);
      if (sim.state.probing() && !was) {
        probes++;
        int learnt = sim.state.limit();
        assertTrue(learnt > 4, "the learnt limit stays shown: " + learnt);
        int admitted = 0;
        for (int r = 0; r < 100; r++) {
          sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
          admitted += sim.verdict.allowed ? 1 : 0;
        }
        assertEquals(4, admitted, "min during the probe");
        sim.now += 10 * MS;
        for (int r = 0; r < admitted; r++) {
          sim.algorithm.complete(sim.state, sim.now, 1, 10 * MS, false);
        }
      }
      was = sim.state.probing();
    }
    // a probe every 5 s +- 20%: 60 in 5 minutes, between 50 and 75
    assertTrue(probes >= 50 && probes <= 75, "probes in 5 minutes: " + probes);
  }

  /**
   * Requests that never end hold permits, but must not freeze the limit: a probe admits {@code
   * min} beside those still running from before it (once they have had twice the recent latency
   * to end), so it gets its samples and the limit keeps learning. Once, with {@code min} of them
   * stuck, every probe admitted nobody and the estimate never moved again.
   */
  @Test
  void requestsThatNeverEndDoNotKeepTheProbesFromLearning() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(100, 30, steady(10));
    sim.stick(10);

    // the app becomes durably slower: only a probe can tell that from congestion
    sim.runFor(30, 30, steady(20));

    assertEquals(20 * MS, sim.state.noLoadLatencyNanos(), "probes measured it beside the stuck");
    assertTrue(sim.state.limit() >= 30, "the limit is not frozen at min: " + sim.state.limit());
    assertEquals(10, sim.stuck, "the stuck ones still hold theirs");
  }

  @Test
  void aProbeWithoutSamplesGivesUpAndAdmitsUpToTheLimitAgain() {
    Sim sim = new Sim(4, 20, 200);
    while (!sim.state.probing()) {
      sim.cycle(1_000, queueing(10, 40), false);
    }
    int learnt = sim.state.limit();
    sim.now += 2_000 * MS; // nobody came
    int admitted = 0;
    for (int r = 0; r < 100; r++) {
      sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
      admitted += sim.verdict.allowed ? 1 : 0;
    }
    assertFalse(sim.state.probing());
    assertEquals(learnt, admitted);
  }

  @Test
  void errorsCutTheLimitByTenPercentPerWindow() {
    Sim sim = new Sim(4, 100, 200);
    sim.cycle(1_000, steady(10), false); // opens the first window
    int before = sim.state.limit();
    sim.cycle(1_000, steady(10), true); // closes a window of successes, opens one of failures
    int afterSuccesses = sim.state.limit();
    sim.cycle(1_000, steady(10), true); // closes the window of failures
    assertEquals((int) (afterSuccesses * 0.9), sim.state.limit(),
        "multiplicative decrease (from " + before + ")");
    for (int i = 0; i < 100; i++) {
      sim.cycle(1_000, steady(10), true);
    }
    assertEquals(4, sim.state.limit(), "never below min");
  }

  @Test
  void aFewErrorsAmongManySuccessesAreNotCongestion() {
    Sim sim = new Sim(4, 100, 200);
    sim.cycle(1_000, steady(10), false);
    int before = sim.state.limit();
    // one failure in 100 requests: under one in ten
    for (int i = 0; i < 100; i++) {
      sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    }
    sim.now += 1_000 * MS;
    for (int i = 0; i < 100; i++) {
      sim.algorithm.complete(sim.state, sim.now, 1, 10 * MS, i == 0);
    }
    sim.cycle(1_000, steady(10), false);
    assertTrue(sim.state.limit() >= before, sim.state.limit() + " >= " + before);
  }

  @Test
  void anIdleAppDoesNotGrowItsLimit() {
    Sim sim = new Sim(4, 20, 200);
    // 9 in flight at most: under half the limit
    sim.run(500, 9, steady(10));
    assertEquals(20, sim.state.limit());
  }

  @Test
  void aWindowOfTooFewSamplesChangesNothing() {
    Sim sim = new Sim(4, 20, 200);
    for (int i = 0; i < 50; i++) {
      // one batch of nine a window
      sim.now += 1_000 * MS;
      for (int r = 0; r < AdaptiveConcurrency.WINDOW_MIN_SAMPLES - 1; r++) {
        sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
      }
      for (int r = 0; r < AdaptiveConcurrency.WINDOW_MIN_SAMPLES - 1; r++) {
        sim.algorithm.complete(sim.state, sim.now, 1, 10 * MS, true);
      }
    }
    assertEquals(20, sim.state.limit(), "nine failures a window say nothing");
  }

  @Test
  void boundsAreKeptAndCheckedAtConstruction() {
    Sim sim = new Sim(10, 10, 30);
    assertEquals(30, sim.run(300, 1_000, steady(10)));
    for (int i = 0; i < 100; i++) {
      sim.cycle(1_000, steady(10), true);
    }
    assertEquals(10, sim.state.limit());
    assertThrows(IllegalArgumentException.class,
        () -> new AdaptiveConcurrency(5, 4, 10, 0, false, null), "initial under min");
    assertThrows(IllegalArgumentException.class,
        () -> new AdaptiveConcurrency(5, 20, 10, 0, false, null), "initial over max");
    assertThrows(IllegalArgumentException.class,
        () -> new AdaptiveConcurrency(0, 1, 10, 0, false, null), "min under 1");
    assertThrows(IllegalArgumentException.class,
        () -> new AdaptiveConcurrency(1, 1, 10, 11_000 * MS, false, null), "max-wait over 10 s");
  }

  @Test
  void aMoveByMoreThanTwiceIsToldOnceFromTheLastToldLimit() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(300, 1_000, steady(10));
    // 20 -> over 40 told, then over 80, then over 160
    assertEquals(3, sim.told.size(), "told " + sim.told);
    assertTrue(sim.told.get(0) > 40 && sim.told.get(1) > 2 * sim.told.get(0)
        && sim.told.get(2) > 2 * sim.told.get(1), "told " + sim.told);
  }

  @Test
  void retryAfterIsShortAndJittered() {
    Sim sim = new Sim(1, 1, 1);
    sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 30; i++) {
      sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
      assertFalse(sim.verdict.allowed);
      seen.add(sim.verdict.retryAfterNanos / (1_000 * MS));
    }
    assertEquals(Set.of(1L, 2L, 3L), seen);
  }

  @Test
  void inShadowModeEveryRequestRunsAndCountsInFlight() {
    Sim sim = new Sim(1, 2, 2, true);
    int refused = 0;
    for (int i = 0; i < 5; i++) {
      sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
      refused += sim.verdict.allowed ? 0 : 1;
    }
    assertEquals(3, refused, "would refuse those over the limit");
    assertEquals(5, sim.state.inFlight(), "but all of them run");
    for (int i = 0; i < 5; i++) {
      sim.algorithm.complete(sim.state, sim.now, 1, 10 * MS, false);
    }
    assertEquals(0, sim.state.inFlight());
    assertEquals(null, sim.algorithm.queueing(), "and never wait");
  }

  @Test
  void inShadowModeAProbeRefusesNothingAndTakesTheLowestWindowSinceTheLast() {
    Sim sim = new Sim(4, 20, 200, true);
    sim.runFor(30, 15, steady(10)); // 15 in flight: under the limit of 20 and over half of it
    assertEquals(0, sim.refused, "nothing over the limit, nothing refused, probes or not");
    assertFalse(sim.state.probing());
    assertEquals(10 * MS, sim.state.noLoadLatencyNanos());
    sim.runFor(15, 15, steady(20));
    assertEquals(0, sim.refused);
    assertEquals(20 * MS, sim.state.noLoadLatencyNanos(), "the lowest window mean since the last");
  }

  @Test
  void aReloadKeepsThePermitsAndTheLearntLimitWithinTheNewBounds() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(300, 1_000, steady(10));
    sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    AdaptiveConcurrency smaller = new AdaptiveConcurrency(4, 20, 50, 0, false, null);
    AdaptiveConcurrency.State carried = smaller.inherit(sim.algorithm, sim.state, sim.now);
    assertEquals(50, carried.limit());
    assertEquals(1, carried.inFlight());
    assertEquals(sim.state.noLoadLatencyNanos(), carried.noLoadLatencyNanos());
    assertEquals(sim.state.nextProbe, carried.nextProbe);
    assertEquals(null, smaller.inherit(new Concurrency(LimitSpec.of(3, 1)), null, sim.now));
  }
}
