package io.tollgate.stores.redis;

import io.tollgate.config.OnFailure;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.Verdict;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.LocalLimiterStore;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * A rule on Redis with its {@code on-failure} policy: decides on Redis, and when Redis
 * cannot answer ({@link BackendUnavailableException}) applies the policy instead.
 *
 * <ul>
 *   <li>{@code allow}: the request is allowed ({@link DecisionSource#FAIL_OPEN}; remaining and reset
 *       are 0, unknown: the engine should not send quota headers for it).
 *   <li>{@code deny}: the request is refused ({@link DecisionSource#FAIL_CLOSED}, which the engine
 *       answers with 503), with a Retry-After of the breaker's cool-down left, at least 1 s.
 *   <li>{@code local}: a {@link LocalLimiterStore} decides, with limit and burst divided by the number
 *       of live instances ({@link InstanceRegistry}; at least 1 each), so that N instances together
 *       stay near the shared limit. Its state is kept across switches, so that no switch hands
 *       out a fresh burst: while Redis decides, every request it decides (allowed or refused) is
 *       also taken from this instance's local share (which never goes below empty), so an outage
 *       starts with the share this instance has left, not a full bucket; and what the share allowed during the outage is
 *       charged to Redis ({@code adjust}) on the key's first decision there after it, so Redis
 *       does not hand it out again. Divided anew when the instance count changes, each key keeping
 *       the part of its share it had used (not refilled: {@link ShareCarry}).
 * </ul>
 *
 * <p>{@code on-failure} is for a Redis that cannot be reached. A reply later than the backend's
 * hard bound on a live connection ({@link RedisFailure#SLOW}, {@link RedisFailure#HUNG}: the host
 * or Redis overloaded, a {@code kill -STOP}, a slow network), one lost with its connection ({@link
 * RedisFailure#LOST}: a drop, usually back in a round trip), one that found no connection while
 * the reconnect after a drop was still under way and had not failed ({@link
 * RedisFailure#RECONNECTING}: slower than {@code max-wait} on a loaded host, or its attempts reset
 * partway within the connect timeout of Redis's last answer), one not sent because
 * enough late calls are outstanding ({@link RedisFailure#BUSY}) and one on a backend a reload
 * retired ({@link RedisFailure#CLOSED}) are decided by the local share under every policy: its state follows
 * Redis's, so a slow Redis admits about the share, where {@code allow} would admit everything and
 * {@code deny} would refuse everyone. (Hence the local share's state is kept for every policy, not
 * only {@code local}.) A late call that was sent is decided within what Redis has not given away
 * to the other instances ({@link LateReplyLedger}): by the share while Redis has not answered the
 * key for {@code max-wait}, and while it does, by the share only as far as Redis's last
 * {@code remaining} covers every instance's calls in flight, else by the tokens Redis granted to
 * this instance's calls refused here (those of calls sent before the share bet while Redis was
 * silent only where the share admits too; where the algorithm can undo one grant, {@code
 * token-bucket} and {@code gcra}, every such token only where the share admits, and one this
 * instance cannot spend goes back to Redis, for the others); so the instances together admit the
 * limit, not the limit plus what an instance that got fewer of Redis's tokens had left of its
 * share, nor less by the tokens an instance that got more could not spend (a share that a
 * refusal of Redis answered in time emptied bets nothing more, but what it had left is kept for
 * those tokens: the ledger's room for credits).
 *
 * <p>A failure of one rule's call only ({@link RedisFailure#RULE_ERROR}: WRONGTYPE, a script error)
 * applies this rule's policy the same way and is logged naming the rule, at most once a minute;
 * the other rules and the backend's breaker never see it.
 *
 * <p>The fallback runs the rule's own algorithm, with its limit (and burst) divided.
 *
 * <p>{@link #adjust} and {@link #release} go to Redis; when Redis cannot answer they go to the local
 * fallback under {@code local} (where the request was most likely decided during the outage), and
 * are dropped otherwise: a correction is lost, and a concurrency permit comes back when its lease
 * ends ({@link RedisConcurrencyStore}). A concurrency permit taken by the fallback is given back to
 * the fallback. Neither ever throws.
 *
 * <p>{@link #decide} writes the verdict only; {@link #decideWithSource} also says who decided.
 */
public final class FailurePolicyStore implements LimiterStore {

  private static final long MIN_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final RateLimitedLog RELEASE_FAILURES = new RateLimitedLog(60_000);
  private static final RateLimitedLog RULE_ERRORS = new RateLimitedLog(60_000);
  /** {@code max-wait}'s default, for a store with no backend (tests of the policy alone). */
  private static final long DEFAULT_MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Covered bets lift a limit by at most {@code 1 / OVER_LIMIT_DIVISOR} ({@link #betAllowance}). */
  static final long OVER_LIMIT_DIVISOR = 20;

  private final RedisAlgorithmStore primary;
  /** Decides in front of {@link #primary}: the primary itself, or a {@link RefusalCacheStore} on it. */
  private final LimiterStore decider;
  private final OnFailure policy;
  private final IntSupplier liveInstances;
  private final Clock clock;
  private final long maxLocalKeys;

  private final LongAdder backendDecisions = new LongAdder();
  private final LongAdder failOpen = new LongAdder();
  private final LongAdder failClosed = new LongAdder();
  private final LongAdder degradedLocal = new LongAdder();
  private final LongAdder ruleErrors = new LongAdder();
  /** Not for permits: Redis's admissions are mirrored into the local share. */
  private final boolean carriesState;
  /** What the local share allowed while Redis could not decide, per key, owed to Redis. */
  private final ConcurrentHashMap<String, Long> owedToRedis = new ConcurrentHashMap<>();
  /** Calls in flight and Redis's last answers per key: what bounds a late decision. */
  private final LateReplyLedger lateReplies;

  private volatile LocalShare local;

  private static final class LocalShare {
    final int instances;
    final LocalLimiterStore<?> store;

    LocalShare(int instances, LocalLimiterStore<?> store) {
      this.instances = instances;
      this.store = store;
    }
  }

  /**
   * @param liveInstances the number of instances sharing the limit (an {@link InstanceRegistry}'s
   *     {@code liveInstances}, or a fixed count); used by {@code local} only
   */
  public FailurePolicyStore(
      RedisAlgorithmStore primary,
      OnFailure policy,
      IntSupplier liveInstances,
      Clock clock,
      long maxLocalKeys) {
    this(primary, primary, policy, liveInstances, clock, maxLocalKeys);
  }

  /**
   * With {@code decider} deciding in front of {@code primary} (such as a {@link RefusalCacheStore}
   * on it); its {@link BackendUnavailableException}s apply the policy as the primary's do.
   */
  public FailurePolicyStore(
      RedisAlgorithmStore primary,
      LimiterStore decider,
      OnFailure policy,
      IntSupplier liveInstances,
      Clock clock,
      long maxLocalKeys) {
    this(primary, decider, policy, liveInstances, clock, maxLocalKeys, null);
  }

  /**
   * With {@code redisAnswering} saying whether Redis answered any call within {@code max-wait}
   * (null: the primary's backend says); tests script it.
   */
  FailurePolicyStore(
      RedisAlgorithmStore primary,
      LimiterStore decider,
      OnFailure policy,
      IntSupplier liveInstances,
      Clock clock,
      long maxLocalKeys,
      BooleanSupplier redisAnswering) {
    this(primary, decider, policy, liveInstances, clock, maxLocalKeys, redisAnswering,
        refundsOf(primary, decider));
  }

  /**
   * With {@code refunds} giving a late call's token back to Redis (null: kept as a credit here);
   * tests script it.
   */
  FailurePolicyStore(
      RedisAlgorithmStore primary,
      LimiterStore decider,
      OnFailure policy,
      IntSupplier liveInstances,
      Clock clock,
      long maxLocalKeys,
      BooleanSupplier redisAnswering,
      LateReplyLedger.Refunds refunds) {
    this.primary = primary;
    this.decider = decider;
    this.policy = policy;
    this.liveInstances = liveInstances;
    this.clock = clock;
    this.maxLocalKeys = maxLocalKeys;
    this.carriesState = !(primary.algorithm() instanceof Concurrency);
    this.lateReplies =
        new LateReplyLedger(clock, this::maxWaitNanos, this::instances,
            redisAnswering != null ? LateReplyLedger.hearing(redisAnswering) : this::redisHearing,
            maxLocalKeys,
            refunds, this::betAllowance, primary::budget);
    if (LateReplyTrace.ON) {
      LateReplyTrace.follow(primary.ruleName(), lateReplies::keysForTrace);
    }
  }

  /**
   * How a token Redis granted to a call refused here goes back to it: by the primary's script,
   * where it can undo one grant and decides alone (not leased, not one of a rule's several
   * budgets, whose grants {@code budgets.lua} may have undone already); else null.
   */
  private static LateReplyLedger.Refunds refundsOf(
      RedisAlgorithmStore primary, LimiterStore decider) {
    return decider == primary && primary.refundsGrants() ? primary::refundInBackground : null;
  }

  @Override
  public void decide(String key, long cost, Verdict verdict) {
    DecisionSource source = decideWithSource(key, cost, verdict);
    verdict.backendUnavailable =
        source == DecisionSource.FAIL_CLOSED || source == DecisionSource.FAIL_OPEN;
    verdict.fallback = source != DecisionSource.BACKEND;
  }

  public DecisionSource decideWithSource(String key, long cost, Verdict verdict) {
    BackendUnavailableException failure;
    Verdict share = null;
    LateReplyLedger.Call inFlight = null;
    try {
      if (carriesState && !owedToRedis.isEmpty()
          && primary.backend().breaker().state() == CircuitBreaker.State.CLOSED) {
        settleOwed(key);
      }
      if (carriesState && cost > 0) {
        share = takeFromShare(key, cost);
        inFlight = lateReplies.sending(key, share.allowed ? cost : 0);
      }
      try {
        decider.decide(key, cost, verdict);
      } catch (RuntimeException | Error e) {
        if (inFlight != null && !(e instanceof BackendUnavailableException
            && ((BackendUnavailableException) e).kind().decidedByLocalShare())) {
          lateReplies.noReply(inFlight); // not decided by the ledger: nothing in flight
          inFlight = null;
        }
        throw e;
      }
      boolean byCredit = false;
      if (inFlight != null) {
        // A refusal empties the share (below); what it had left stays the ledger's, where only
        // tokens Redis counted (credits) may be spent in it: by this refusal too, if it can.
        byCredit = lateReplies.answered(inFlight, cost, verdict,
            verdict.allowed ? 0 : shareLeftNow(key, cost, share));
      }
      backendDecisions.increment();
      if (share != null && !verdict.allowed && share.remaining > 0) {
        // Redis says the shared budget is spent: so is this instance's share of it for a bet,
        // whatever it had left (an instance that got fewer of Redis's tokens would carry them
        // into a slow spell, and admit them on top of the limit: 118 of 100 under kill -STOP
        // before this). Tokens Redis grants to this instance's late calls are still spent in
        // what was left (the ledger keeps it): they are counted on Redis, and with replies about
        // max-wait late the shares' room was lost at the first such refusal (88-95 of 100).
        localStore().adjust(key, share.remaining);
      }
      if (byCredit) {
        // Refused by Redis, admitted by a token Redis granted to an earlier call of this
        // instance's that was refused here (LateReplyLedger): none left after it.
        verdict.allow(0, verdict.resetNanos);
      }
      return DecisionSource.BACKEND;
    } catch (BackendUnavailableException e) {
      failure = e;
    }
    if (failure.kind() == RedisFailure.RULE_ERROR) {
      ruleErrors.increment();
      RULE_ERRORS.warn(primary.ruleName(), () -> "rule '" + primary.ruleName() + "': "
          + failure.getMessage() + "; this rule applies its on-failure (" + policy.yamlName()
          + ") until redis decides it again; other rules are not affected");
    }
    if (failure.kind().decidedByLocalShare()) {
      // Redis is alive and slow (or being replaced by a reload): the local share, which follows
      // Redis's state, is a far better answer than the outage policy (allow would switch the limit
      // off while Redis is slow, deny would refuse everyone). A permit taken here is given back
      // here (release finds none of this instance's on Redis for it), and the late call's own
      // permit on Redis comes back when its lease ends.
      degradedLocal.increment();
      if (inFlight != null) {
        // Decided within what Redis has not given away (LateReplyLedger); a call whose reply is
        // late is followed to it, one lost, not sent or on a retired backend has none to come.
        LateReplyLedger.LateDecision how = lateReplies.decideLate(inFlight, cost, share, verdict,
            lateDecisionFollows(failure) ? failure.lateDecision() : null, () -> owe(key, cost));
        if (how == LateReplyLedger.LateDecision.HELD && share != null && share.allowed) {
          // Refused: the share's unit goes back to it, for a Redis that then stops answering.
          localStore().adjust(key, -cost);
        }
        if (verdict.allowed && failure.kind().shareOwesRedis()
            && how != LateReplyLedger.LateDecision.CREDIT) {
          // Never sent (the queue of late calls full, or no connection yet after a drop): charged
          // to Redis before the key's next decision there, or each instance would hand out its
          // share on top of what Redis allows.
          owe(key, cost);
        }
        return DecisionSource.DEGRADED_LOCAL;
      }
      decideByShare(key, cost, verdict, share);
      if (carriesState && verdict.allowed && cost > 0 && failure.kind().shareOwesRedis()) {
        // Never sent: charged to Redis before the key's next decision there, as above.
        owe(key, cost);
      }
      return DecisionSource.DEGRADED_LOCAL;
    }
    switch (policy) {
      case DENY:
        failClosed.increment();
        verdict.refuse(0, Math.max(MIN_RETRY_NANOS, failure.retryAfterNanos()), 0);
        return DecisionSource.FAIL_CLOSED;
      case LOCAL:
        degradedLocal.increment();
        decideByShare(key, cost, verdict, share);
        if (carriesState && policy == OnFailure.LOCAL && verdict.allowed && cost > 0
            && mayOwe(failure)) {
          owe(key, cost);
        }
        return DecisionSource.DEGRADED_LOCAL;
      case ALLOW:
      default:
        failOpen.increment();
        verdict.allow(0, 0);
        return DecisionSource.FAIL_OPEN;
    }
  }

  /** Whether Redis's decision of the failed call is still to come (a late reply, read). */
  private static boolean lateDecisionFollows(RuntimeException e) {
    return e instanceof BackendUnavailableException
        && ((BackendUnavailableException) e).lateDecision() != null
        && ((BackendUnavailableException) e).kind().decidedByLocalShare();
  }

  /**
   * Whether Redis answered any call within {@code max-wait}, was silent while this JVM listened, or
   * this JVM has not listened that long (its event loop not run since: {@link
   * RedisBackend#hearing}); no backend, as in tests: silent.
   */
  private RedisHearing redisHearing() {
    RedisBackend backend = primary.backend();
    return backend != null ? backend.hearing(maxWaitNanos()) : RedisHearing.SILENT;
  }

  /** {@code max-wait}: how long an answer of Redis says it is deciding a key. */
  private long maxWaitNanos() {
    RedisBackend backend = primary.backend();
    return backend == null ? DEFAULT_MAX_WAIT_NANOS : backend.settings().maxWait().toNanos();
  }

  /**
   * Keeps the two sides in step: each request asked of Redis is taken from the local share too,
   * before it is sent (capped at empty), and a refusal from Redis empties the share (the shared
   * budget is spent, however unevenly the instances got Redis's tokens). Taken
   * before, not after the reply: the requests whose replies come late are decided by this very
   * verdict, so that a late request and the requests Redis answers in time never both count
   * against a share and a budget that are one (taken after, every late request was decided by a
   * share not yet charged for the requests ahead of it, and a 200 ms late Redis admitted 1.16 x
   * the limit).
   */
  private Verdict takeFromShare(String key, long cost) {
    Verdict share = new Verdict();
    localStore().decide(key, cost, share);
    return share;
  }

  /**
   * What the share has left now, with this request's own unit (taken for it before it was sent,
   * and Redis refused it): read again, not the {@code share} of when the call was sent, since the
   * late decisions meanwhile may have spent some (reported stale, they were room twice: 105).
   */
  private long shareLeftNow(String key, long cost, Verdict share) {
    long left = 0;
    if (share.remaining > 0) {
      Verdict now = new Verdict();
      localStore().decide(key, 0, now); // takes nothing
      left = Math.max(0, Math.min(share.remaining, now.remaining));
    }
    return left + (share.allowed ? cost : 0);
  }

  /** The local share's verdict: taken already for this request ({@code share}), or now. */
  private void decideByShare(String key, long cost, Verdict verdict, Verdict share) {
    if (share == null) {
      localStore().decide(key, cost, verdict);
    } else {
      verdict.allowed = share.allowed;
      verdict.remaining = share.remaining;
      verdict.retryAfterNanos = share.retryAfterNanos;
      verdict.resetNanos = share.resetNanos;
      verdict.delayNanos = share.delayNanos;
      verdict.backendUnavailable = false;
      verdict.fallback = false;
    }
  }

  /** Charges Redis, before its next decision of the key, what the local share allowed of it. */
  private void settleOwed(String key) {
    Long owed = owedToRedis.remove(key);
    if (owed != null) {
      try {
        decider.adjust(key, owed);
      } catch (BackendUnavailableException e) {
        owe(key, owed); // next time
        throw e;
      }
    }
  }

  /**
   * Whether a request the local share allowed is surely not counted on Redis: not when the call
   * may have run there (it was sent, and its reply was late or lost).
   */
  private static boolean mayOwe(BackendUnavailableException failure) {
    return failure.kind() == RedisFailure.UNREACHABLE || failure.kind() == RedisFailure.SERVER_ERROR
        || failure.kind().shareOwesRedis();
  }

  private void owe(String key, long cost) {
    if (owedToRedis.size() < maxLocalKeys || owedToRedis.containsKey(key)) {
      owedToRedis.merge(key, cost, Long::sum);
    }
  }

  @Override
  public void release(String key, long cost) {
    try {
      if (primary.releaseShared(key, cost)) {
        return;
      }
    } catch (BackendUnavailableException e) {
      RELEASE_FAILURES.log(
          primary.ruleName(),
          () -> "rule '" + primary.ruleName() + "': a permit could not be given back on redis (it"
              + " comes back when its lease ends): " + e.getMessage());
      return;
    }
    LocalShare share = local;
    if (share != null) {
      share.store.release(key, cost);
    }
  }

  @Override
  public void adjust(String key, long delta) {
    try {
      decider.adjust(key, delta);
    } catch (BackendUnavailableException e) {
      if (policy == OnFailure.LOCAL) {
        localStore().adjust(key, delta);
      }
    }
  }

  /**
   * The in-process fallback for the current instance count. When the count changes (an instance
   * joins, or one that left drops out of the registry) the share is divided anew, and each key
   * keeps what it had used of it ({@link ShareCarry}): a share rebuilt full once handed every
   * instance a fresh part of a budget Redis had already spent, and the late decisions after it
   * admitted 112 of 100 under a flood.
   */
  LocalLimiterStore<?> localStore() {
    int instances = Math.max(1, liveInstances.getAsInt());
    LocalShare share = local;
    if (share == null || share.instances != instances) {
      synchronized (this) {
        share = local;
        if (share == null || share.instances != instances) {
          LocalLimiterStore<?> divided = localStoreOf(primary.dividedAmong(instances));
          if (share != null) {
            ShareCarry.takeOver(divided, share.store, carriesState);
          }
          share = new LocalShare(instances, divided);
          local = share;
        }
      }
    }
    return share.store;
  }

  private <S> LocalLimiterStore<S> localStoreOf(RateLimitAlgorithm<S> algorithm) {
    return new LocalLimiterStore<>(algorithm, clock, maxLocalKeys);
  }

  /**
   * How much of a key this instance's covered bets not yet settled may amount to ({@link
   * LateReplyLedger}): its part, {@code 1 / instances}, of {@code 1 / }{@value
   * #OVER_LIMIT_DIVISOR} of the rule's budget, rounded down (0 below 20 x instances: no covered
   * bet, only credits and held calls). Once Redis has said what is left of a key (in time or
   * late), the instances' covered bets then lift its limit by at most a twentieth, however fast
   * the others spend (the share's bets while Redis is silent, its slow-is-not-down answer, are
   * the shares: together the limit).
   */
  long betAllowance() {
    return primary.budget() / OVER_LIMIT_DIVISOR / instances();
  }

  /**
   * The instances sharing the rule's budget, as the registry last counted them (at least 1): a
   * pool on Redis is this instance's to share out by its part, {@code permits / instances}.
   */
  public int instances() {
    return Math.max(1, liveInstances.getAsInt());
  }

  @Override
  public long estimatedKeys() {
    LocalShare share = local;
    return share == null ? primary.estimatedKeys() : share.store.estimatedKeys();
  }

  /** What bounds this rule's late decisions; for tests. */
  LateReplyLedger lateReplies() {
    return lateReplies;
  }

  public OnFailure policy() {
    return policy;
  }

  public RedisAlgorithmStore primary() {
    return primary;
  }

  /** What decides while Redis answers: {@link #primary()}, or a {@link RefusalCacheStore} on it. */
  public LimiterStore decider() {
    return decider;
  }

  public long backendDecisions() {
    return backendDecisions.sum();
  }

  public long failOpenDecisions() {
    return failOpen.sum();
  }

  public long failClosedDecisions() {
    return failClosed.sum();
  }

  /** Decisions that fell back because Redis answered an error for this rule alone. */
  public long ruleErrorDecisions() {
    return ruleErrors.sum();
  }

  public long degradedLocalDecisions() {
    return degradedLocal.sum();
  }
}
