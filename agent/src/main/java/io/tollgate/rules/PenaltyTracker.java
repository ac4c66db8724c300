package io.tollgate.rules;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.Verdict;
import java.time.Duration;

/**
 * A rule's {@code penalty}: one {@link PenaltyBox} state per key, shared by all of the rule's limits
 * (and plans), so that it counts the rule's refusals of the key, whichever limit refused. Bounded
 * like the stores: at most {@code max-keys} keys, each forgotten once it has been neither refused
 * nor boxed for {@link PenaltyBox#idleNanosUntilFresh()}.
 */
public final class PenaltyTracker {

  private final PenaltyBox box;
  private final Clock clock;
  private final Cache<String, PenaltyBox.State> states;
  private final String fingerprint;

  PenaltyTracker(PenaltyBox box, Clock clock, long maxKeys, String fingerprint) {
    this.box = box;
    this.fingerprint = fingerprint;
    this.clock = clock;
    this.states =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .expireAfterAccess(Duration.ofNanos(box.idleNanosUntilFresh()))
            .executor(Runnable::run)
            .build();
  }

  /** What defines this tracker's counting; a reload that keeps it keeps the boxed keys. */
  String fingerprint() {
    return fingerprint;
  }

  /** If the key is in the box: writes the refusal into {@code verdict} and returns true. */
  public boolean check(String key, Verdict verdict) {
    PenaltyBox.State state = states.getIfPresent(key);
    if (state == null) {
      return false;
    }
    synchronized (state) {
      return box.check(state, clock.nowNanos(), verdict);
    }
  }

  /** Counts a refusal of the key; the one that fills the box stretches {@code verdict} to it. */
  public void record(String key, Verdict verdict) {
    if (verdict.allowed) {
      return;
    }
    PenaltyBox.State state = states.get(key, k -> box.newState());
    synchronized (state) {
      box.record(state, clock.nowNanos(), verdict);
    }
  }
}
