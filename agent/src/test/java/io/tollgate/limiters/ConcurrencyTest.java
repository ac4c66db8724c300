package io.tollgate.limiters;

import static io.tollgate.limiters.Step.S;
import static io.tollgate.limiters.Step.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConcurrencyTest {

  private final Concurrency bulkhead = new Concurrency(LimitSpec.of(3, S));
  private final Concurrency.State state = bulkhead.newState();
  private final Verdict verdict = new Verdict();

  private String decide(long cost) {
    bulkhead.decide(state, T0, cost, verdict);
    return verdict.toString();
  }

  @Test
  void atMostLimitInFlightAndReleaseGivesBack() {
    assertFalse(bulkhead.holdsResources(state));
    assertEquals("allowed remaining=2 retryAfterNanos=0 resetNanos=0", decide(1));
    assertTrue(bulkhead.holdsResources(state));
    assertEquals("allowed remaining=0 retryAfterNanos=0 resetNanos=0", decide(2));
    assertEquals("refused remaining=0 retryAfterNanos=1000000000 resetNanos=1000000000", decide(1));
    bulkhead.release(state, T0, 2);
    assertEquals(1, state.inFlight());
    assertEquals("refused remaining=2 retryAfterNanos=1000000000 resetNanos=1000000000", decide(3));
    assertEquals("allowed remaining=0 retryAfterNanos=0 resetNanos=0", decide(2));
    bulkhead.release(state, T0, 3);
    assertFalse(bulkhead.holdsResources(state));
  }

  @Test
  void releaseNeverGoesBelowZeroAndTimeDoesNotMatter() {
    bulkhead.release(state, T0, 5);
    assertEquals(0, state.inFlight());
    decide(3);
    bulkhead.decide(state, T0 + 1_000_000 * S, 1, verdict);
    assertFalse(verdict.allowed);
    bulkhead.release(state, T0, 3);
    // more than the limit never passes
    assertEquals("refused remaining=3 retryAfterNanos=1000000000 resetNanos=1000000000", decide(4));
  }

  @Test
  void idleTimeIsLongButFiniteAndPolicyIsTheLimit() {
    assertEquals(3_600 * S, bulkhead.idleNanosUntilFresh());
    assertEquals(3, bulkhead.policy().quota());
    assertEquals(1, bulkhead.policy().windowSeconds());
  }
}
