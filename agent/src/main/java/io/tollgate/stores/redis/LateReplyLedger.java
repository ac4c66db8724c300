package io.tollgate.stores.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What one instance knows of a key from Redis's replies, so that a decision made here because
 * Redis's reply is late admits only what Redis has not also given away: the bound on the total
 * admitted by all instances of a rule while replies come late.
 *
 * <p>The local share alone cannot give that bound. It counts only this instance's requests, and
 * the instances do not get Redis's tokens evenly: under a flood on a saturated host (most replies
 * later than the {@code timeout}, the bulkhead full) an instance that got fewer of Redis's tokens
 * still has share left when the others have spent the budget, and each late decision it makes
 * from it is one more on top of the limit (113 admitted of 100 by three instances in a flood with
 * no fault at all). So, per key, a late decision here is one of:
 *
 * <ol>
 *   <li><b>Spend a credit</b>: a token Redis granted to an earlier call of this instance whose
 *       request was refused here (below), not yet spent. Redis counted it for this instance and
 *       nobody else has it: an admission that can never be on top of the limit.
 *   <li><b>Redis has answered nothing for {@code max-wait}</b>, nor this key (a Redis slow from
 *       the key's first call, a {@code kill -STOP}): the local share decides, as before. Nobody
 *       is getting Redis's answers then, so the shares are all that admits, and together they
 *       are the limit. Slow is not down: a 10 s late Redis still admits each instance's share,
 *       and no {@code deny} rule refuses within it.
 *   <li><b>Redis answers, but not yet this key</b> (its first calls, on a saturated host): the
 *       other instances may be getting Redis's answers for it beyond their shares, so the share
 *       admits only as far as what is left of it covers every instance's calls of the key in
 *       flight ({@code share's remaining >= (instances - 1) x calls in flight x cost}, the share
 *       having counted this instance's own: a key's first few calls, not its whole share; all of
 *       it on a single instance), else the request is held as in (4). (Betting the whole share
 *       here, a flood's first round admitted 107-111 of 100.)
 *   <li><b>Redis answers the key, late</b>: Redis is deciding it, for the other instances too, and
 *       their admissions are not in this instance's share. The share admits only while what Redis
 *       last said is left covers the calls in flight of every instance: {@code remaining >=
 *       instances x this instance's calls of the key not yet answered x cost} (the instances
 *       flooded alike have as many in flight); the last answer a refusal, remaining is 0 and
 *       nothing is admitted here (Redis's refusal is honoured until it says otherwise). Otherwise
 *       the request is refused, and its call, which was sent, is <b>held</b>: if Redis grants it a
 *       token, that token becomes a credit (1), so the budget is not lost, only spent a moment
 *       later by the next late request.
 * </ol>
 *
 * <p>Why this and not the alternatives issue 28 weighed: reservations taken ahead on Redis (as
 * {@code lease-tokens} does for the hot path) would need a second write per key in every
 * algorithm's script and would not help the case that matters most to "slow is not down", a key
 * whose first call is already late (nothing was reserved for it); and a local admission charged
 * back to Redis as a debt when its late reply says refused bounds the next period, not the one
 * that was exceeded. The credits are the reservations, taken by the calls that are late anyway:
 * no extra round trip, and a request Redis answers in time costs one map lookup more.
 *
 * <p>A request the share admits late is a debt until its reply says Redis counted it (and stays
 * one if Redis refused it): credits are spent only beyond this instance's bets that are not
 * settled, so a bet that proves to be on top of the limit is paid back before a credit admits
 * more. A call with no reply to come (lost with its connection, never sent because the queue of late
 * calls is full, or on a backend a reload retired) is decided the same way, with no credit to
 * come of it. Credits last {@link #CREDIT_NANOS} from their last change (as a lease's tokens do), then
 * are given up; a debt stays until paid (or the key is forgotten). Memory: one small entry per key seen in the last {@link
 * #KEY_IDLE_NANOS}, at most {@code maxKeys}.
 */
final class LateReplyLedger {

  /** How long a credit may be spent: as long as a {@link TokenLeaseStore} lease. */
  static final long CREDIT_NANOS = TokenLeaseStore.LEASE_NANOS;

  /** A key not decided for this long is forgotten (a fresh entry is conservative enough). */
  static final long KEY_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

  /** Retry-After of a request refused while its call is held: a credit may come by then. */
  private static final long HELD_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** How a late decision was made: what its reply, when it comes, does. */
  enum LateDecision {
    /** Admitted by a credit. */
    CREDIT,
    /** Decided by the share: Redis had not answered the key for {@code max-wait}. */
    SHARE,
    /** Admitted by the share, what Redis last said is left covering every instance's calls. */
    COVERED,
    /** Refused: Redis decides the key; a token it grants this call becomes a credit. */
    HELD
  }

  /** One key's calls and what Redis last said of it; guarded by its own monitor. */
  static final class Key {
    int outstanding;
    /** Calls sent so far, and the latest of them whose reply was noted. */
    long sent;
    long notedCall;
    boolean answered;
    long answeredAt;
    long remaining;
    long refusedUntil;
    long credits;
    long creditsUntil;
  }

  private final Clock clock;
  private final LongSupplier freshNanos;
  private final IntSupplier instances;
  private final BooleanSupplier redisAnswering;
  private final Cache<String, Key> keys;

  /**
   * @param freshNanos how long an answer of Redis says it decides the key ({@code max-wait})
   * @param instances the instances sharing the limit now
   * @param redisAnswering whether any call got a reply within {@code max-wait}
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      BooleanSupplier redisAnswering, long maxKeys) {
    this.clock = clock;
    this.redisAnswering = redisAnswering;
    this.freshNanos = freshNanos;
    this.instances = instances;
    this.keys =
        Caffeine.newBuilder()
            .maximumSize(Math.max(1, maxKeys))
            .expireAfterAccess(Duration.ofNanos(KEY_IDLE_NANOS))
            .executor(Runnable::run)
            .ticker(clock::nowNanos)
            .build();
  }

  /**
   * One call of a key, numbered in the order sent: replies on one connection come in that order,
   * but the request threads that read them in time may note them later than a later call's late
   * reply (a saturated host runs them late), so only the latest call's answer is what Redis says.
   */
  static final class Call {
    final Key key;
    final long number;

    Call(Key key, long number) {
      this.key = key;
      this.number = number;
    }
  }

  /** A call of {@code key} is about to be sent: in flight until {@link #answered} or {@link #noReply}. */
  Call sending(String key) {
    Key k = keys.get(key, ignored -> new Key());
    synchronized (k) {
      k.outstanding++;
      return new Call(k, ++k.sent);
    }
  }

  /** Redis answered the call in time. */
  void answered(Call call, Verdict decided) {
    long now = clock.nowNanos();
    Key k = call.key;
    synchronized (k) {
      k.outstanding--;
      note(k, call.number, decided, now);
    }
  }

  /** No reply will come for the call (not sent, lost with its connection, or not readable). */
  void noReply(Call call) {
    Key k = call.key;
    synchronized (k) {
      k.outstanding--;
    }
  }

  /**
   * Decides a request whose call is late into {@code verdict}, as the class comment says: {@code
   * share} is the local share's verdict, already taken for it; {@code reply} is what Redis will
   * have decided of the call, null when no reply is to come (lost, not sent); {@code notRun} is called if the reply says the call did not run
   * (its script was not cached: {@code NOSCRIPT}) after the request was admitted here without a
   * token of Redis's, so that it is charged there (nothing else would count it).
   *
   * @return how it was decided
   */
  LateDecision decideLate(Call call, long cost, Verdict share, Verdict verdict,
      CompletionStage<Verdict> reply, Runnable notRun) {
    long now = clock.nowNanos();
    Key k = call.key;
    LateDecision how;
    long retryNanos;
    synchronized (k) {
      if (k.credits > 0 && now - k.creditsUntil >= 0) {
        k.credits = 0; // not spent in time: given up (a debt stays until paid)
      }
      if (k.credits >= cost) {
        k.credits -= cost;
        how = LateDecision.CREDIT;
      } else if (!k.answered || now - k.answeredAt >= freshNanos.getAsLong()) {
        if (!redisAnswering.getAsBoolean()) {
          how = LateDecision.SHARE;
        } else if (share.allowed && covers(k, share.remaining, cost, 1)) {
          how = LateDecision.COVERED;
        } else {
          how = LateDecision.HELD;
        }
      } else if (share.allowed && covers(k, k.remaining, cost, 0)) {
        how = LateDecision.COVERED;
      } else {
        how = LateDecision.HELD;
      }
      retryNanos = Math.max(HELD_RETRY_NANOS, k.refusedUntil - now);
      if (share.allowed && (how == LateDecision.SHARE || how == LateDecision.COVERED)) {
        // A bet: a debt until its reply says Redis counted it, so that no credit is spent while
        // a bet of this instance may still prove to be on top of the limit.
        credit(k, -cost, now);
      }
    }
    switch (how) {
      case CREDIT:
        verdict.allow(Math.max(0, share.remaining), share.resetNanos);
        break;
      case HELD:
        verdict.refuse(0, retryNanos, share.resetNanos);
        break;
      default:
        copy(share, verdict);
    }
    LateDecision made = how;
    boolean admitted = verdict.allowed;
    boolean admittedUncounted = verdict.allowed && how != LateDecision.CREDIT;
    if (reply == null) {
      lateReply(call, cost, made, admitted, null);
      return how;
    }
    reply.whenComplete((decided, error) -> {
      lateReply(call, cost, made, admitted, decided);
      if (admittedUncounted && RedisFailure.scriptNotCached(error)) {
        notRun.run();
      }
    });
    return how;
  }

  /**
   * {@code left} covers as many calls in flight as this instance's for every instance but {@code
   * counted} (those whose calls {@code left} has counted already: this one, for its share).
   */
  private boolean covers(Key k, long left, long cost, int counted) {
    long inFlight;
    try {
      long others = Math.max(0, Math.max(1, instances.getAsInt()) - counted);
      inFlight = Math.multiplyExact(Math.multiplyExact(others, (long) k.outstanding), cost);
    } catch (ArithmeticException tooMany) {
      return false;
    }
    return left >= inFlight;
  }

  /** The late call's reply came (or none will: {@code decided} null). */
  private void lateReply(
      Call call, long cost, LateDecision how, boolean admittedHere, Verdict decided) {
    long now = clock.nowNanos();
    Key k = call.key;
    synchronized (k) {
      k.outstanding--;
      boolean bet = (how == LateDecision.SHARE || how == LateDecision.COVERED) && admittedHere;
      if (decided == null) {
        if (bet) {
          credit(k, cost, now); // nothing to learn: the bet is no longer owed here
        }
        return;
      }
      note(k, call.number, decided, now);
      if (decided.allowed && (how == LateDecision.HELD || how == LateDecision.CREDIT)) {
        // A token Redis counted for this instance and no request here has: a credit (for a
        // request admitted by a credit, its own token replaces the credit it spent).
        credit(k, cost, now);
      } else if (bet && decided.allowed) {
        credit(k, cost, now); // Redis counted it: the bet's debt is settled
      }
      // (a bet Redis refused stays a debt: paid back from the next credit)
    }
  }

  private static void credit(Key k, long delta, long now) {
    if (k.credits > 0 && now - k.creditsUntil >= 0) {
      k.credits = 0;
    }
    k.credits += delta;
    k.creditsUntil = now + CREDIT_NANOS;
  }

  private static void note(Key k, long callNumber, Verdict decided, long now) {
    k.answered = true;
    k.answeredAt = now;
    if (callNumber < k.notedCall) {
      return; // an earlier call's answer, read late: Redis has said more since
    }
    k.notedCall = callNumber;
    k.remaining = decided.allowed ? Math.max(0, decided.remaining) : 0;
    if (!decided.allowed) {
      k.refusedUntil = now + Math.max(0, decided.retryAfterNanos);
    }
  }

  private static void copy(Verdict from, Verdict to) {
    to.allowed = from.allowed;
    to.remaining = from.remaining;
    to.retryAfterNanos = from.retryAfterNanos;
    to.resetNanos = from.resetNanos;
    to.nextUnitNanos = from.nextUnitNanos;
    to.delayNanos = from.delayNanos;
    to.backendUnavailable = false;
    to.fallback = false;
  }

  /** Credits of {@code key} now (negative: a debt); for tests. */
  long credits(String key) {
    Key k = keys.getIfPresent(key);
    if (k == null) {
      return 0;
    }
    synchronized (k) {
      return k.credits;
    }
  }

  /** Calls of {@code key} in flight now; for tests. */
  int outstanding(String key) {
    Key k = keys.getIfPresent(key);
    if (k == null) {
      return 0;
    }
    synchronized (k) {
      return k.outstanding;
    }
  }
}
