package io.tollgate.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.ManualClock;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.limiters.Verdict;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What happens at a store's {@code max-keys} bound, and to keys that hold permits. */
class LocalLimiterStoreBoundsTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);

  private final ManualClock clock = ManualClock.atEpochMillis(1_700_000_040_000L);

  @Test
  void aFloodOfNewKeysDoesNotEvictAKeyThatIsBeingLimited() {
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(new TokenBucket(LimitSpec.of(5, 3600 * S)), clock, 1_000);
    Verdict verdict = new Verdict();
    // a store already full of ordinary clients (Caffeine counts frequencies from half full on)
    for (int i = 0; i < 1_000; i++) {
      store.decide("client-" + i, 1, verdict);
    }
    // the attacker uses up its budget and keeps trying, as attackers do
    for (int i = 0; i < 50; i++) {
      store.decide("attacker", 1, verdict);
    }
    assertFalse(verdict.allowed);
    // then 100 times max-keys distinct one-off keys, with one real attempt for every 100 of them
    for (int i = 0; i < 100_000; i++) {
      store.decide("spoofed-" + i, 1, verdict);
      if (i % 100 == 0) {
        store.decide("attacker", 1, verdict);
        assertFalse(verdict.allowed, "attacker allowed after " + i + " new keys");
      }
    }
    store.cleanUp();
    assertTrue(store.estimatedKeys() <= 1_000, "bounded: " + store.estimatedKeys());
    store.decide("attacker", 1, verdict);
    assertFalse(verdict.allowed, "still limited: eviction gave it no fresh budget");
  }

  @Test
  void aKeyHoldingPermitsIsNeitherEvictedNorExpiredUntilItsRequestsEnd() {
    Concurrency bulkhead = new Concurrency(LimitSpec.of(1, S));
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(bulkhead, clock, 100);
    Verdict verdict = new Verdict();
    store.decide("busy", 1, verdict);
    assertTrue(verdict.allowed);
    for (int i = 0; i < 10_000; i++) {
      store.decide("other-" + i, 1, verdict);
      store.release("other-" + i, 1);
    }
    clock.advanceNanos(bulkhead.idleNanosUntilFresh() * 3);
    store.cleanUp();
    assertTrue(store.tracks("busy"), "the key with a permit held is kept");
    store.decide("busy", 1, verdict);
    assertFalse(verdict.allowed, "its permit is still counted");

    store.release("busy", 1);
    clock.advanceNanos(bulkhead.idleNanosUntilFresh() + 2 * S);
    store.cleanUp();
    assertFalse(store.tracks("busy"), "forgotten once nothing is held and it has been idle");
  }

  @Test
  void adjustChargesAndRefundsAKey() {
    LocalLimiterStore<?> store =
        new LocalLimiterStore<>(new TokenBucket(LimitSpec.of(10, 3600 * S)), clock, 100);
    Verdict verdict = new Verdict();
    store.decide("k", 10, verdict);
    assertEquals(0, verdict.remaining);
    store.adjust("k", -4);
    store.decide("k", 4, verdict);
    assertTrue(verdict.allowed, "the refund made room for 4");
    store.decide("k", 1, verdict);
    assertFalse(verdict.allowed);
    store.adjust("unknown", -3); // nothing to give back: no state created
    assertFalse(store.tracks("unknown"));
  }
}
