package io.tollgate.rules;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.Verdict;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.stores.redis.BackendUnavailableException;
import io.tollgate.stores.redis.RedisPenaltyBox;
import java.time.Duration;

/**
 * A rule's {@code penalty}: one {@link PenaltyBox} state per key, shared by all of the rule's limits
 * (and plans), so that it counts the rule's refusals of the key, whichever limit refused.
 *
 * <p>With {@code backend: local} the states are in this process, bounded like the stores: at most
 * {@code max-keys} keys, each forgotten once it has been neither refused nor boxed for {@link
 * PenaltyBox#idleNanosUntilFresh()}. With {@code backend: redis} they are on Redis ({@link
 * RedisPenaltyBox}), so that all instances count one key's refusals together and all refuse a boxed
 * key. When Redis cannot answer, the penalty never fails nor holds up a request: under {@code
 * on-failure: local} this process's own states count and box meanwhile (as with {@code backend:
 * local}); otherwise the penalty is skipped until Redis answers again. Either is logged, at most
 * once a minute per rule.
 */
public final class PenaltyTracker {

  private static final RateLimitedLog REDIS_FAILURES = new RateLimitedLog(60_000);

  private final PenaltyBox box;
  private final Clock clock;
  private final Cache<String, PenaltyBox.State> states;
  private final PenaltyFingerprint fingerprint;
  /** Null: the states in this process are the penalty's. */
  private final RedisPenaltyBox shared;
  /** With {@link #shared}: whether this process's states count while Redis cannot answer. */
  private final boolean localWhenUnavailable;
  /**
   * With {@link #shared}: the keys this instance has seen boxed on Redis, with the time they may
   * retry on this process's clock (the box's end, or the limiter's if later), kept no longer than
   * the penalty. A box never ends early, so until then the key is refused here without asking
   * Redis again: a boxed client's flood costs Redis nothing.
   */
  private final Cache<String, Long> knownBoxed;

  /** A penalty counted in this process. */
  PenaltyTracker(PenaltyBox box, Clock clock, long maxKeys, PenaltyFingerprint fingerprint) {
    this(box, clock, maxKeys, fingerprint, null, false);
  }

  /**
   * A penalty counted on Redis by {@code shared}; {@code localWhenUnavailable}: counted in this
   * process while Redis cannot answer ({@code on-failure: local}), else skipped meanwhile.
   */
  PenaltyTracker(
      PenaltyBox box,
      Clock clock,
      long maxKeys,
      PenaltyFingerprint fingerprint,
      RedisPenaltyBox shared,
      boolean localWhenUnavailable) {
    this.box = box;
    this.fingerprint = fingerprint;
    this.clock = clock;
    this.shared = shared;
    this.localWhenUnavailable = localWhenUnavailable;
    this.states =
        Caffeine.newBuilder()
            .maximumSize(maxKeys)
            .expireAfterAccess(Duration.ofNanos(box.idleNanosUntilFresh()))
            .executor(Runnable::run)
            .build();
    this.knownBoxed =
        shared == null
            ? null
            : Caffeine.newBuilder()
                .maximumSize(maxKeys)
                .expireAfterWrite(Duration.ofNanos(shared.penaltyNanos()))
                .executor(Runnable::run)
                .<String, Long>build();
  }

  /** What defines this tracker's counting; a reload that keeps it keeps the boxed keys. */
  String fingerprint() {
    return fingerprint.text();
  }

  /** If the key is in the box: writes the refusal into {@code verdict} and returns true. */
  public boolean check(String key, Verdict verdict) {
    if (shared != null) {
      Long until = knownBoxed.getIfPresent(key);
      if (until != null) {
        long left = until - clock.nowNanos();
        if (left > 0) {
          verdict.refuse(0, left, left);
          return true;
        }
        knownBoxed.invalidate(key);
      }
      try {
        if (shared.check(key, verdict)) {
          knownBoxed.put(key, clock.nowNanos() + verdict.retryAfterNanos);
          return true;
        }
        return false;
      } catch (BackendUnavailableException e) {
        unavailable(e);
        if (!localWhenUnavailable) {
          return false;
        }
      }
    }
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
    // A 503 because the shared store could not answer (on-failure: deny) is not the client's doing.
    if (verdict.allowed || verdict.backendUnavailable) {
      return;
    }
    if (shared != null) {
      try {
        if (shared.record(key, verdict)) {
          // the verdict now says when the key may retry: the box's end or the limiter's, if later
          knownBoxed.put(key, clock.nowNanos() + verdict.retryAfterNanos);
        }
        return;
      } catch (BackendUnavailableException e) {
        unavailable(e);
        if (!localWhenUnavailable) {
          return;
        }
      }
    }
    PenaltyBox.State state = states.get(key, k -> box.newState());
    synchronized (state) {
      box.record(state, clock.nowNanos(), verdict);
    }
  }

  private void unavailable(BackendUnavailableException e) {
    String rule = shared.ruleName();
    REDIS_FAILURES.log(
        rule,
        () -> "rule '" + rule + "': penalty box on redis unavailable, "
            + (localWhenUnavailable ? "counted by this instance alone" : "skipped")
            + " meanwhile: " + e.getMessage());
  }
}
