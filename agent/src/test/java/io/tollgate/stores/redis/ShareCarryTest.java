package io.tollgate.stores.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A local share divided anew (the instance count changed) keeps the fraction of it each key had
 * used, rounded toward spent, for every algorithm that counts: a spent share stays spent, a fresh
 * one stays fresh, half used stays half used.
 */
class ShareCarryTest {

  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private static final long NOW = TimeUnit.DAYS.toNanos(20_000);

  @ParameterizedTest(name = "{0}: {2} used of {1}, divided to {3}: {4} left")
  @CsvSource({
    // algorithm,    share before, used, share after, left after
    "TOKEN_BUCKET,   16,           16,   33,          0",  // spent stays spent: 6 instances -> 3
    "TOKEN_BUCKET,   16,           0,    33,          33", // fresh stays fresh
    "TOKEN_BUCKET,   16,           8,    33,          16", // half used: 17 of 33 used (rounded up)
    "TOKEN_BUCKET,   33,           11,   16,          10", // 3 -> 6: a third used, 6 of 16
    "GCRA,           16,           16,   33,          0",
    "GCRA,           10,           5,    20,          10",
    "FIXED_WINDOW,   16,           16,   33,          0",
    "FIXED_WINDOW,   10,           5,    20,          10",
    "SLIDING_WINDOW, 16,           16,   33,          0",
    "SLIDING_WINDOW, 10,           5,    20,          10",
    "SLIDING_LOG,    16,           16,   33,          0",
    "SLIDING_LOG,    10,           5,    20,          10",
  })
  void theFractionUsedStaysUsed(
      AlgorithmKind kind, long before, long used, long after, long leftAfter) {
    RateLimitAlgorithm<Object> writer = algorithm(kind, before);
    Object state = writer.newState();
    Verdict verdict = new Verdict();
    for (int i = 0; i < used; i++) {
      writer.decide(state, NOW, 1, verdict);
    }
    RateLimitAlgorithm<Object> next = algorithm(kind, after);
    Object carried = ShareCarry.sameFractionUsed(writer, state, next, NOW);
    Object now = carried == null ? next.newState() : carried;
    int admitted = 0;
    while (admitted <= after) {
      next.decide(now, NOW, 1, verdict);
      if (!verdict.allowed) {
        break;
      }
      admitted++;
    }
    assertEquals(leftAfter, admitted);
  }

  @SuppressWarnings("unchecked")
  private static RateLimitAlgorithm<Object> algorithm(AlgorithmKind kind, long limit) {
    return (RateLimitAlgorithm<Object>) Algorithms.create(kind, LimitSpec.of(limit, HOUR));
  }
}
