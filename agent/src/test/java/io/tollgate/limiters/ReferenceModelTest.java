package io.tollgate.limiters;

import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each algorithm against a long-hand model of what it promises, over random traffic: same
 * decisions, same remaining, same retry-after. The models are written the obvious way (a bucket of
 * tokens topped up since the last request; a list of every allowed request, counted), not the way
 * the algorithms compute. Then the bound each algorithm guarantees is checked on what it allowed.
 *
 * <p>One seed per run, printed in every failure; {@code -Dtollgate.seed=N} replays a run.
 */
class ReferenceModelTest {

  private static final long SEED = Long.getLong("tollgate.seed", System.nanoTime());
  private static final int ROUNDS = 100;
  private static final int REQUESTS = 300;

  /** What the algorithm should have said, computed long-hand. */
  interface Model {
    void decide(long now, long cost, Verdict expected);
  }

  /** An allowed request: when, and how many units. */
  static final class Event {
    final long time;
    final long cost;

    Event(long time, long cost) {
      this.time = time;
      this.cost = cost;
    }
  }

  private static LimitSpec randomSpec(Random random) {
    long limit = 1 + random.nextInt(12);
    // periods from 1 ms to 3 s, in whole nanoseconds: rarely divisible by the limit
    long period = 1_000_000L + (long) (random.nextDouble() * 3 * S);
    long burst = 1 + random.nextInt(15);
    return new LimitSpec(limit, period, burst);
  }

  /** Random gaps: bursts at one instant, short gaps, and now and then several idle periods. */
  private static long nextGap(Random random, long period) {
    int kind = random.nextInt(10);
    if (kind < 3) {
      return 0;
    } else if (kind < 9) {
      return (long) (random.nextDouble() * period / 3);
    } else {
      return (long) (random.nextDouble() * 3 * period);
    }
  }

  private static long nextCost(Random random, long limit) {
    int kind = random.nextInt(20);
    if (kind == 0) {
      return limit + 1 + random.nextInt(3);
    }
    return kind < 14 ? 1 : 1 + random.nextInt((int) Math.min(limit, 4));
  }

  /** Plays random traffic on the algorithm and the model; returns what was allowed. */
  private static <S> List<Event> compare(
      String what, RateLimitAlgorithm<S> algorithm, Model model, LimitSpec spec, Random random,
      boolean checkRetry) {
    S state = algorithm.newState();
    Verdict actual = new Verdict();
    Verdict expected = new Verdict();
    List<Event> allowed = new ArrayList<>();
    long now = T0 + (long) (random.nextDouble() * spec.periodNanos());
    for (int i = 0; i < REQUESTS; i++) {
      now += nextGap(random, spec.periodNanos());
      long cost = nextCost(random, spec.limit());
      algorithm.decide(state, now, cost, actual);
      model.decide(now, cost, expected);
      String where =
          "seed " + SEED + ", " + what + " " + spec + ", request " + i + " at " + (now - T0)
              + " cost " + cost + ": expected " + expected + ", got " + actual;
      assertEquals(expected.allowed, actual.allowed, where);
      assertEquals(expected.remaining, actual.remaining, where);
      if (checkRetry) {
        assertEquals(expected.retryAfterNanos, actual.retryAfterNanos, where);
      }
      assertEquals(expected.delayNanos, actual.delayNanos, where);
      if (actual.allowed) {
        allowed.add(new Event(now + actual.delayNanos, cost));
      }
    }
    return allowed;
  }

  // ---------------------------------------------------------------- token bucket and GCRA

  /**
   * A bucket of tokens, kept exactly as tokens * period (an integer), topped up by
   * elapsed * limit since the last request and capped at burst * period; it may go below zero by
   * up to max-delay * limit (requests booked ahead, GCRA only).
   */
  static final class BucketModel implements Model {
    final long limit;
    final long period;
    final long burst;
    final long maxDelay;
    long tokensScaled;
    long last = Long.MIN_VALUE;

    BucketModel(LimitSpec spec, long maxDelay) {
      this.limit = spec.limit();
      this.period = spec.periodNanos();
      this.burst = spec.burst();
      this.maxDelay = maxDelay;
      this.tokensScaled = burst * period;
    }

    @Override
    public void decide(long now, long cost, Verdict v) {
      if (last != Long.MIN_VALUE) {
        tokensScaled = Math.min(burst * period, tokensScaled + (now - last) * limit);
      }
      last = now;
      long wholeTokens = Math.max(0, Math.floorDiv(tokensScaled, period));
      long after = tokensScaled - cost * period;
      if (cost * period > burst * period + maxDelay * limit) {
        v.refuse(wholeTokens, period, 0);
      } else if (after >= 0) {
        tokensScaled = after;
        v.allow(after / period, 0);
      } else if (after >= -maxDelay * limit) {
        tokensScaled = after;
        v.allow(0, 0);
        v.delayNanos = ceilDiv(-after, limit);
      } else {
        v.refuse(wholeTokens, ceilDiv(-after - maxDelay * limit, limit), 0);
      }
    }
  }

  @Test
  void tokenBucketIsABucketOfTokens() {
    Random random = new Random(SEED);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      List<Event> allowed =
          compare("token-bucket", new TokenBucket(spec), new BucketModel(spec, 0), spec, random, true);
      assertBucketBound(spec, allowed);
    }
  }

  @Test
  void gcraIsABucketThatMayBookAhead() {
    Random random = new Random(SEED + 1);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      long maxDelay = random.nextBoolean() ? 0 : (long) (random.nextDouble() * spec.periodNanos());
      compare("gcra max-delay " + maxDelay, new Gcra(spec, maxDelay), new BucketModel(spec, maxDelay),
          spec, random, true);
    }
  }

  /** In any interval [a, b], at most burst + (b - a) * limit / period units pass. */
  private static void assertBucketBound(LimitSpec spec, List<Event> allowed) {
    for (int i = 0; i < allowed.size(); i++) {
      long units = 0;
      for (int j = i; j < allowed.size(); j++) {
        units += allowed.get(j).cost;
        long span = allowed.get(j).time - allowed.get(i).time;
        long boundScaled = spec.burst() * spec.periodNanos() + span * spec.limit();
        assertTrue(units * spec.periodNanos() <= boundScaled, "seed " + SEED + " " + spec);
      }
    }
  }

  // ---------------------------------------------------------------- windows and the log

  /** Every allowed request, kept; counts recomputed from the list at each decision. */
  abstract static class ListModel implements Model {
    final long limit;
    final long period;
    final List<Event> allowed = new ArrayList<>();

    ListModel(LimitSpec spec) {
      this.limit = spec.limit();
      this.period = spec.periodNanos();
    }

    long unitsInWindow(long window) {
      long units = 0;
      for (Event e : allowed) {
        if (Math.floorDiv(e.time, period) == window) {
          units += e.cost;
        }
      }
      return units;
    }

    /** Would a request of this cost be allowed at this time, with no more traffic? */
    abstract boolean fits(long time, long cost);

    abstract long remaining(long time);

    @Override
    public void decide(long now, long cost, Verdict v) {
      // Requests more than two periods old count in no window and no log: drop them (time only
      // moves forward), so that the counting stays quick.
      allowed.removeIf(e -> now - e.time > 2 * period);
      if (cost > limit) {
        v.refuse(remaining(now), period, 0);
      } else if (fits(now, cost)) {
        allowed.add(new Event(now, cost));
        v.allow(remaining(now), 0);
      } else {
        // The first later time it fits, by bisection: fitting only gets easier as time passes.
        long low = 0;
        long high = 2 * period;
        while (high - low > 1) {
          long mid = low + (high - low) / 2;
          if (fits(now + mid, cost)) {
            high = mid;
          } else {
            low = mid;
          }
        }
        v.refuse(remaining(now), high, 0);
      }
    }
  }

  static final class FixedWindowModel extends ListModel {
    FixedWindowModel(LimitSpec spec) {
      super(spec);
    }

    @Override
    boolean fits(long time, long cost) {
      return unitsInWindow(Math.floorDiv(time, period)) + cost <= limit;
    }

    @Override
    long remaining(long time) {
      return limit - unitsInWindow(Math.floorDiv(time, period));
    }
  }

  /** previous * (1 - elapsed/period) + current, as an exact fraction over period. */
  static final class SlidingWindowModel extends ListModel {
    SlidingWindowModel(LimitSpec spec) {
      super(spec);
    }

    /** The estimate times period. */
    private long estimateScaled(long time) {
      long window = Math.floorDiv(time, period);
      long elapsed = Math.floorMod(time, period);
      return unitsInWindow(window - 1) * (period - elapsed) + unitsInWindow(window) * period;
    }

    @Override
    boolean fits(long time, long cost) {
      return estimateScaled(time) + cost * period <= limit * period;
    }

    @Override
    long remaining(long time) {
      return Math.max(0, Math.floorDiv(limit * period - estimateScaled(time), period));
    }
  }

  /** Units allowed in (time - period, time]. */
  static final class SlidingLogModel extends ListModel {
    SlidingLogModel(LimitSpec spec) {
      super(spec);
    }

    private long unitsInLastPeriod(long time) {
      long units = 0;
      for (Event e : allowed) {
        if (time - e.time < period) {
          units += e.cost;
        }
      }
      return units;
    }

    @Override
    boolean fits(long time, long cost) {
      return unitsInLastPeriod(time) + cost <= limit;
    }

    @Override
    long remaining(long time) {
      return limit - unitsInLastPeriod(time);
    }
  }

  @Test
  void fixedWindowCountsPerEpochWindow() {
    Random random = new Random(SEED + 2);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      List<Event> allowed =
          compare("fixed-window", new FixedWindow(spec), new FixedWindowModel(spec), spec, random, true);
      assertAtMostPerEpochWindow(spec, allowed, spec.limit());
    }
  }

  @Test
  void slidingWindowIsTheTwoCounterEstimate() {
    Random random = new Random(SEED + 3);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      List<Event> allowed =
          compare("sliding-window", new SlidingWindow(spec), new SlidingWindowModel(spec), spec,
              random, true);
      assertAtMostPerEpochWindow(spec, allowed, spec.limit());
    }
  }

  @Test
  void slidingLogCountsTheLastPeriodExactly() {
    Random random = new Random(SEED + 4);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      List<Event> allowed =
          compare("sliding-log", new SlidingLog(spec), new SlidingLogModel(spec), spec, random, true);
      // in every interval [t, t + period), at most limit units
      for (Event first : allowed) {
        long units = 0;
        for (Event e : allowed) {
          if (e.time >= first.time && e.time - first.time < spec.periodNanos()) {
            units += e.cost;
          }
        }
        assertTrue(units <= spec.limit(), "seed " + SEED + " " + spec);
      }
    }
  }

  @Test
  void aUtcCalendarDayIsAFixedWindowOfOneDay() {
    Random random = new Random(SEED + 5);
    long day = 86_400L * S;
    for (int round = 0; round < 20; round++) {
      LimitSpec spec = LimitSpec.of(1 + random.nextInt(12), day);
      FixedWindowModel model = new FixedWindowModel(spec);
      compare("calendar day UTC",
          new CalendarQuota(spec.limit(), CalendarQuota.Unit.DAY, ZoneOffset.UTC),
          (now, cost, v) -> {
            model.decide(now, cost, v);
            if (cost > spec.limit()) {
              v.retryAfterNanos = day; // a window's length, as for the fixed window's period
            }
          },
          spec, random, true);
    }
  }

  private static void assertAtMostPerEpochWindow(LimitSpec spec, List<Event> allowed, long bound) {
    java.util.Map<Long, Long> perWindow = new java.util.HashMap<>();
    for (Event e : allowed) {
      perWindow.merge(Math.floorDiv(e.time, spec.periodNanos()), e.cost, Long::sum);
    }
    for (long units : perWindow.values()) {
      assertTrue(units <= bound, "seed " + SEED + " " + spec);
    }
  }

  // ---------------------------------------------------------------- concurrency

  @Test
  void concurrencyCountsWhatIsHeld() {
    Random random = new Random(SEED + 6);
    for (int round = 0; round < ROUNDS; round++) {
      long limit = 1 + random.nextInt(10);
      Concurrency bulkhead = new Concurrency(LimitSpec.of(limit, S));
      Concurrency.State state = bulkhead.newState();
      Verdict verdict = new Verdict();
      List<Long> held = new ArrayList<>();
      long inFlight = 0;
      for (int i = 0; i < REQUESTS; i++) {
        if (!held.isEmpty() && random.nextBoolean()) {
          long cost = held.remove(random.nextInt(held.size()));
          bulkhead.release(state, T0, cost);
          inFlight -= cost;
        } else {
          long cost = nextCost(random, limit);
          bulkhead.decide(state, T0, cost, verdict);
          String where = "seed " + SEED + " limit " + limit + " request " + i + ": " + verdict;
          assertEquals(inFlight + cost <= limit, verdict.allowed, where);
          if (verdict.allowed) {
            held.add(cost);
            inFlight += cost;
          }
          assertEquals(limit - inFlight, verdict.remaining, where);
        }
        assertEquals(inFlight, state.inFlight());
        assertEquals(inFlight > 0, bulkhead.holdsResources(state));
        assertTrue(inFlight <= limit);
      }
    }
  }

  // ---------------------------------------------------------------- fresh after idle

  @Test
  void afterIdleNanosUntilFreshEveryAlgorithmDecidesAsForANewKey() {
    Random random = new Random(SEED + 7);
    for (int round = 0; round < ROUNDS; round++) {
      LimitSpec spec = randomSpec(random);
      for (AlgorithmKind kind : AlgorithmKind.values()) {
        if (kind == AlgorithmKind.CONCURRENCY || kind == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
          continue; // no time in it (what adaptive-concurrency learns is tested on its own)
        }
        Algorithms.Options options =
            kind == AlgorithmKind.GCRA
                ? Algorithms.Options.DEFAULTS.withMaxDelayNanos(spec.periodNanos() / 2)
                : Algorithms.Options.DEFAULTS;
        assertFreshAfterIdle(kind.yamlName(), Algorithms.create(kind, spec, options), spec, random);
      }
      assertFreshAfterIdle(
          "penalty box",
          new PenaltyBox(2, spec.periodNanos(), 3 * spec.periodNanos())
              .guard(new TokenBucket(spec)),
          spec,
          random);
    }
  }

  private static <S> void assertFreshAfterIdle(
      String what, RateLimitAlgorithm<S> algorithm, LimitSpec spec, Random random) {
    S used = algorithm.newState();
    S fresh = algorithm.newState();
    Verdict a = new Verdict();
    Verdict b = new Verdict();
    long now = T0;
    for (int i = 0; i < 30; i++) {
      now += nextGap(random, spec.periodNanos()) / 4;
      algorithm.decide(used, now, nextCost(random, spec.limit()), a);
    }
    now += algorithm.idleNanosUntilFresh();
    for (int i = 0; i < 30; i++) {
      long cost = nextCost(random, spec.limit());
      algorithm.decide(used, now, cost, a);
      algorithm.decide(fresh, now, cost, b);
      assertEquals(b.toString(), a.toString(), "seed " + SEED + " " + what + " " + spec + " #" + i);
      now += nextGap(random, spec.periodNanos()) / 4;
    }
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
