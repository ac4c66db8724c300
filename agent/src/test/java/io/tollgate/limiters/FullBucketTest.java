package io.tollgate.limiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request of cost 1 that finds its bucket full ({@code tat} before now: a key's first request,
 * or one after a long enough pause) is decided by GCRA without its divisions: it must give what
 * the general arithmetic gives to the same request on a bucket that is full just now ({@code tat}
 * equal to now, which takes the general way), in the verdict and in the state left.
 *
 * <p>Each row is an algorithm and an instant; the rules cover a limit that divides the period
 * and ones that do not (a fraction carried), bursts of 1, below and above the limit, GCRA's
 * max-delay, and the coarser units of very large numbers.
 */
class FullBucketTest {

  private static final long S = 1_000_000_000L;
  private static final long NOW = 1_733_461_200L * S + 123_456_789L;

  static Stream<Arguments> rows() {
    return Stream.of(
        row("token bucket 5/1m", () -> new TokenBucket(LimitSpec.of(5, 60 * S))),
        row("token bucket 7/1m: T is 8.571428571... s, a fraction carried",
            () -> new TokenBucket(LimitSpec.of(7, 60 * S))),
        row("token bucket 10^9/s (the benchmarks' rule)",
            () -> new TokenBucket(LimitSpec.of(1_000_000_000L, S))),
        row("token bucket 3/1s, burst 1", () -> new TokenBucket(new LimitSpec(3, S, 1))),
        row("token bucket 1/1h, burst 10", () -> new TokenBucket(new LimitSpec(1, 3_600 * S, 10))),
        row("token bucket 3/1d: a fraction of 1/3",
            () -> new TokenBucket(LimitSpec.of(3, 86_400 * S))),
        row("token bucket of 7 million a day, burst a million: microseconds, a fraction carried",
            () -> new TokenBucket(new LimitSpec(7_000_000L, 86_400 * S, 1_000_000L))),
        row("gcra 6/1m", () -> new Gcra(LimitSpec.of(6, 60 * S))),
        row("gcra 7/1s with max-delay 2s", () -> new Gcra(LimitSpec.of(7, S), 2 * S)),
        row("gcra 1/1m, burst 1, max-delay 30s",
            () -> new Gcra(new LimitSpec(1, 60 * S, 1), 30 * S)),
        row("gcra 7 million a day, burst a million: microseconds, a fraction carried",
            () -> new Gcra(new LimitSpec(7_000_000L, 86_400 * S, 1_000_000L))));
  }

  static Arguments row(String title, Supplier<Gcra> algorithm) {
    return Arguments.of(title, algorithm);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void aFullBucketsRequestIsDecidedAsTheGeneralArithmeticDecidesIt(
      String title, Supplier<Gcra> algorithm) {
    Gcra gcra = algorithm.get();
    if (title.contains("microseconds")) {
      assertEquals(1_000L, gcra.unitNanos(), title + ": the unit the row is about");
    }
    for (long now : new long[] {NOW, NOW + 1, NOW + 999_999_999L, 7 * S}) {
      Gcra.State fresh = gcra.newState(); // tat 0: long before now, the shortcut
      Verdict shortcut = new Verdict();
      gcra.decide(fresh, now, 1, shortcut);

      Gcra.State justFull = gcra.newState();
      justFull.tat = Math.floorDiv(now, gcra.unitNanos()); // tat == now: the general way
      Verdict general = new Verdict();
      gcra.decide(justFull, now, 1, general);

      assertTrue(shortcut.allowed, title);
      assertEquals(general.toString(), shortcut.toString(), title + " at " + now);
      assertEquals(general.remaining, shortcut.remaining, title);
      assertEquals(general.resetNanos, shortcut.resetNanos, title);
      assertEquals(general.nextUnitNanos, shortcut.nextUnitNanos, title);
      assertEquals(general.delayNanos, shortcut.delayNanos, title);
      assertEquals(justFull.tat, fresh.tat, title + ": the state's tat");
      assertEquals(justFull.tatFraction, fresh.tatFraction, title + ": the state's fraction");
    }
  }
}
