package io.tollgate.limiters;

import static io.tollgate.limiters.Step.MS;
import static io.tollgate.limiters.Step.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AlgorithmsTest {

  @ParameterizedTest
  @EnumSource(value = AlgorithmKind.class, names = "ADAPTIVE_CONCURRENCY",
      mode = EnumSource.Mode.EXCLUDE)
  void everyKindHasAnAlgorithmAdvertisingLimitPerPeriod(AlgorithmKind kind) {
    RateLimitAlgorithm<?> algorithm = Algorithms.create(kind, LimitSpec.of(5, 60 * S));
    assertEquals(5, algorithm.policy().quota());
    assertEquals(60, algorithm.policy().windowSeconds());
    assertEquals(kind, kindOf(algorithm));
  }

  /** adaptive-concurrency has no period: the limit is its ceiling, advertised nowhere. */
  @org.junit.jupiter.api.Test
  void adaptiveConcurrencyTakesTheLimitAsItsCeiling() {
    AdaptiveConcurrency algorithm = (AdaptiveConcurrency) Algorithms.create(
        AlgorithmKind.ADAPTIVE_CONCURRENCY, LimitSpec.of(5, 60 * S));
    assertEquals(5, algorithm.max());
    assertEquals(4, algorithm.min());
    assertEquals(5, algorithm.initial());
    assertEquals(5, algorithm.policy().quota());
  }

  private static AlgorithmKind kindOf(RateLimitAlgorithm<?> algorithm) {
    if (algorithm instanceof TokenBucket) {
      return AlgorithmKind.TOKEN_BUCKET;
    } else if (algorithm instanceof Gcra) {
      return AlgorithmKind.GCRA;
    } else if (algorithm instanceof FixedWindow) {
      return AlgorithmKind.FIXED_WINDOW;
    } else if (algorithm instanceof SlidingWindow) {
      return AlgorithmKind.SLIDING_WINDOW;
    } else if (algorithm instanceof SlidingLog) {
      return AlgorithmKind.SLIDING_LOG;
    } else if (algorithm instanceof Concurrency) {
      return AlgorithmKind.CONCURRENCY;
    }
    return null;
  }

  @Test
  void maxDelayGoesToGcraOnly() {
    Algorithms.Options options = Algorithms.Options.DEFAULTS.withMaxDelayNanos(250 * MS);
    Gcra gcra = (Gcra) Algorithms.create(AlgorithmKind.GCRA, LimitSpec.of(5, S), options);
    assertEquals(250 * MS, gcra.maxDelayNanos());
    assertEquals(
        0, ((Gcra) Algorithms.create(AlgorithmKind.GCRA, LimitSpec.of(5, S))).maxDelayNanos());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Algorithms.create(AlgorithmKind.TOKEN_BUCKET, LimitSpec.of(5, S), options));
    assertEquals("max-delay applies to the gcra algorithm only, not token-bucket", e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> Algorithms.Options.DEFAULTS.withMaxDelayNanos(-1));
  }

  @Test
  void calendarQuotas() {
    RateLimitAlgorithm<?> daily =
        Algorithms.calendar(1000, CalendarQuota.Unit.DAY, ZoneId.of("Europe/Paris"));
    assertEquals(1000, daily.policy().quota());
    assertEquals(86_400, daily.policy().windowSeconds());
  }
}
