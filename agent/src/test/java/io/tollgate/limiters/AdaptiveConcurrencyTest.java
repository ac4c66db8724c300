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

    /**
     * One window: {@code demand} requests arrive at once (as many as the limit admits run), a
     * window's length passes, and they complete, each after {@code latency(admitted)} and failed
     * or not. The next window's first completion closes this one: the limit moves then.
     */
    int cycle(int demand, IntToLongFunction latency, boolean failed) {
      now += 1_000 * MS; // longer than any window: the first completion below closes the last
      int completed = 0;
      // batches 1 ms apart until the window has its samples
      for (int batch = 0; batch < 20; batch++) {
        int admitted = 0;
        for (int i = 0; i < demand; i++) {
          algorithm.decide(state, now, 1, verdict);
          if (verdict.allowed) {
            admitted++;
          }
        }
        long each = latency.applyAsLong(admitted);
        now += MS;
        for (int i = 0; i < admitted; i++) {
          algorithm.complete(state, now, 1, each, failed);
        }
        completed += admitted;
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
    Sim sim = new Sim(4, 20, 200);
    // 40 workers: beyond 40 in flight, requests queue and latency rises with them
    for (int minute = 1; minute <= 10; minute++) {
      int limit = sim.run(60, 1_000, queueing(10, 40));
      // it creeps up as the long average follows the loaded latency: a quarter in ten minutes
      assertTrue(limit >= 36 && limit <= 80,
          "minute " + minute + ": the limit stays near the app's 40 workers: " + limit);
    }
  }

  @Test
  void latencyDoublingUnderLoadShrinksTheLimit() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(300, 1_000, steady(10));
    assertEquals(200, sim.state.limit());
    // the app saturates: twice the latency at 200 in flight
    int before = sim.state.limit();
    sim.run(5, 1_000, steady(20));
    assertTrue(sim.state.limit() < before, "shrinks: " + sim.state.limit());
    int after5 = sim.state.limit();
    sim.run(10, 1_000, steady(20));
    assertTrue(sim.state.limit() < after5, "goes on shrinking: " + sim.state.limit());
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
  void anAppDurablySlowerSettlesAtANewLevelAndDoesNotStickAtMin() {
    Sim sim = new Sim(4, 20, 200);
    int settled = sim.run(120, 1_000, queueing(10, 100));
    assertTrue(settled >= 90 && settled <= 150, "near its 100 workers: " + settled);
    // a slow deploy: every request takes twice as long, with the same 100 workers
    sim.lowest = settled;
    sim.run(90, 1_000, queueing(20, 100));
    assertTrue(sim.lowest < 20, "it shrank at first, latency having doubled: " + sim.lowest);
    int after = sim.run(12 * 60, 1_000, queueing(20, 100));
    assertTrue(after >= 90 && after <= 150,
        "twelve minutes later it has settled near the workers again: " + after);
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
  void aReloadKeepsThePermitsAndTheLearntLimitWithinTheNewBounds() {
    Sim sim = new Sim(4, 20, 200);
    sim.run(300, 1_000, steady(10));
    sim.algorithm.decide(sim.state, sim.now, 1, sim.verdict);
    AdaptiveConcurrency smaller = new AdaptiveConcurrency(4, 20, 50, 0, false, null);
    AdaptiveConcurrency.State carried = smaller.inherit(sim.algorithm, sim.state, sim.now);
    assertEquals(50, carried.limit());
    assertEquals(1, carried.inFlight());
    assertEquals(sim.state.noLoadLatencyNanos(), carried.noLoadLatencyNanos());
    assertEquals(null, smaller.inherit(new Concurrency(LimitSpec.of(3, 1)), null, sim.now));
  }
}
