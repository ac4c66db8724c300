package io.tollgate.stores.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Verdict;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

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
 *       nobody else has it: an admission that can never be on top of the limit. Except after the
 *       share has bet because Redis was silent (2): the shares together are then the limit, and
 *       a token Redis granted to a call sent before that bet is part of the same budget, so it is
 *       spent only where the share admits too (see below).
 *   <li><b>Redis has answered nothing for {@code max-wait}</b>, nor this key, while this JVM
 *       listened (its event loop ran: a starved JVM's replies wait unread, below) (a Redis slow
 *       from the key's first call, a {@code kill -STOP}): the local share decides, as before. Nobody
 *       is getting Redis's answers then, so the shares are all that admits, and together they
 *       are the limit. Slow is not down: a 10 s late Redis still admits each instance's share,
 *       and no {@code deny} rule refuses within it. (Within Redis's last word on the key: its
 *       refusal until its {@code Retry-After}, its grant's {@code remaining} divided among the
 *       instances; below.)
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
 *       flooded alike have as many in flight), as many times over as round trips of the call that
 *       brought it have passed since it came (the others send as many again each; an instance
 *       starved of CPU bet on answers in time while they spent the budget, {@link #roundsSince});
 *       the last answer a refusal, remaining is 0 and
 *       nothing is admitted here (Redis's refusal is honoured until it says otherwise). Otherwise
 *       the request is refused, and its call, which was sent, is <b>held</b>: if Redis grants it a
 *       token, that token becomes a credit (1), so the budget is not lost, only spent a moment
 *       later by the next late request.
 * </ol>
 *
 * <p><b>A covered bet (3, 4) is within an allowance.</b> What Redis said is left is nobody's:
 * the other instances, answered in time, may spend it at any pace before this instance's late
 * calls reach Redis, and an instance starved of CPU reads its answers late and measures every
 * round trip long, so neither the rounds counted nor the others' spending seen bound what they
 * spend meanwhile (113 of 100: one instance bet 15 calls on a remaining of a moment before, and
 * Redis refused 14; BENCHMARKS.md section 7, h-bets). So once Redis has said what is left of
 * the key (within {@code max-wait}; in time or late alike: an instance none of whose calls comes
 * in time cannot tell that from a Redis late for everyone), this instance's covered bets not
 * settled (each a debt until Redis counts it, one Redis refused until a token of this
 * instance's pays it) never exceed its allowance ({@code
 * FailurePolicyStore#betAllowance}: 1/20 of the rule's budget divided among the instances). What
 * an instance admits over Redis's count is never more than its debt, so the instances together
 * go over by at most a twentieth of the limit whatever the others do ({@link #withinAllowance}).
 * The bets it refuses are held: Redis's tokens to them are credits, not lost.
 *
 * <p><b>Redis's refusal holds while it is silent.</b> A refusal says no token is left until its
 * {@code Retry-After}; the share bets (2) only once Redis has answered nothing for {@code
 * max-wait}, and a refusal read just before that silence still says the budget is spent. So the
 * share does not bet until the key's last refusal has run out: the calls are held. Without this
 * the share bet the units its held calls had given back after the refusal (a starved instance
 * hears nothing for a second: every one of its share's bets on a key Redis had refused was
 * refused again, 82-97 of 100 with them in the traced {@code reload-deny} passes, h-trace). A
 * Redis frozen after a refusal loses nothing by it (no token was there), and one frozen after a
 * grant, or past the refusal's {@code Retry-After}, still has the shares decide.
 *
 * <p><b>After a grant, a silent share bets only its part of what Redis said is left</b>: a third
 * of the grant's {@code remaining} with three instances, plus a third of what the limit refilled
 * since, less its bets while silent that the grant does not count ({@link #silentShareWithin}).
 * The shares together are the limit only while no instance took more of Redis's tokens than its
 * share; under a flood on a saturated host the instances answered in time do, and the starved
 * one, hearing nothing for {@code max-wait} (its replies waiting unread), bet the share it had
 * left on top of them: 9 bets on a remaining of 6, all refused by Redis (104 of 100, h-trace's
 * {@code M-10}). What a grant said is left, divided among the instances, is the most they can all
 * bet on it together, whoever took what before, so no estimate of the others is needed; a Redis
 * frozen right after the grant still has each share bet its part (slow is not down), and one
 * frozen before any answer of the key, or past the grant's reset, the whole shares as before.
 * The cost: an instance with more share left than its part of what is left bets only the part
 * (it cannot tell that from an instance whose share the others took). Not bounded by the part: a
 * grant read a second ago that the others have spent since (a remaining of 75 or 89: each instance
 * bets up to a third of it); nothing this instance hears tells that from a Redis frozen right after
 * it. What does: in those passes (L-6, L-11) the instance had not heard, its event loop starved
 * while Redis's replies waited in its socket; so Redis counts as silent only once this JVM's event
 * loop has run since the silence reached {@code max-wait} ({@link RedisBackend#answeredWithin},
 * {@link EventLoopBarrier}), and a loop that has not is this JVM's silence: the calls are held.
 *
 * <p><b>A JVM that has not listened holds.</b> Redis is silent only once this JVM's event loop has
 * run since the silence reached {@code max-wait} and read nothing ({@link RedisBackend#hearing},
 * {@link EventLoopBarrier}). On a host starved of CPU (L-6, L-11, h-quota's reproduction) the
 * request threads time out while the loop has not run, Redis's replies waiting unread in the
 * socket: nothing current is known of Redis or of the key then, so a request that nothing of the
 * key answered within {@code max-wait} decides is held ({@link RedisHearing#NOT_LISTENING}),
 * neither the share's bet (2) nor a covered bet before an answer (3): its call was sent, and a
 * token Redis grants it becomes a credit. (Counting it as "Redis answers" instead moved the
 * starved instance's bets from (2) to (3), where nothing bounds them but the share's room: 23
 * covered bets before an answer, all refused by Redis, 1026 of 1000; BENCHMARKS.md section 7,
 * h-stall.) Credits and the covered bets on a fresh answer of the key (4), within the allowance,
 * decide as before.
 *
 * <p>Why a credit of a call sent before a silent bet goes through the share: a call held while
 * Redis answered others but not this key (3) gave its share's unit back, for a Redis that then
 * stops answering; when it does, the shares bet those units, and when Redis's replies (2 s late,
 * say) then grant tokens to the held calls, the same budget is counted twice. An instance whose
 * held calls got more tokens than it bet spent the difference while another's bets were refused
 * (111 of 100 with every reply 2 s late). Through the share, the instance admits its share in
 * all, or Redis's tokens if fewer: together at most the limit. (Charging the held calls to the
 * share instead would leave no share to bet when replies are 10 s late: slow would be down.)
 *
 * <p><b>Tokens given back to Redis</b> (where the algorithm's script can undo one grant, {@code
 * token-bucket} and {@code gcra} ({@link RedisAlgorithmStore#refundsGrants}), and Redis decides
 * the rule's key alone: not leased, not behind a refusal cache, not one of several limits). Kept here, the
 * tokens of an instance whose share was spent were lost: it could not spend them (through the
 * share), nobody else could (Redis had counted them), and with replies about {@code max-wait} late
 * (Redis silent only a moment, the shares betting a few calls each) the instances admitted the
 * smaller of each share and Redis's tokens to it, 86-93 of 100 when Redis's tokens went to them
 * unevenly. So there, every token Redis grants to a call refused here (held, or refused by the
 * share) is a credit spent only where the share admits too, whenever it was sent, and is given
 * back to Redis ({@code adjust} by {@code -cost}, in the background) as soon as this instance's
 * share refuses a late request while it has credits, or when they expire. Redis then grants it to
 * the next call of any instance: one whose share has room spends it, one with a refused bet to
 * pay is paid, one whose share is spent gives it back again. What bounds it: from above, every
 * late admission is charged to the admitting instance's share (a bet, or a credit spent where
 * the share admits), so late decisions never admit more than the shares, which together are the
 * limit, however unevenly Redis's tokens came (unlike credits spent freely, which let an instance
 * spend what another's refused bets had also spent: 111-186 of 100 in {@code h-late-1s}); a token
 * refunded is one Redis counted for no admission. From below, no token is lost while the flood
 * goes on: it moves, one reply delay at a time, until a call of an instance whose share has room
 * gets it. A refund is best effort (lost with its connection: the token is then lost, as before)
 * and never moves a bucket back before now, so it never gives back a token that time has already
 * returned.
 *
 * <p><b>What the share had left when Redis refused in time</b> stays room for credits. With
 * replies about {@code max-wait} late, some calls of every instance are answered in time after
 * all (a request thread that waited the whole {@code max-wait} in the bulkhead wakes on a saturated
 * host a few ms late and finds the reply there), most of them refusals once Redis's budget is
 * given out; a refusal empties the share, so that a share Redis says is spent bets nothing when
 * Redis then goes silent (a {@code kill -STOP}: 118 of 100 before that). The share of the instance
 * that got fewer of Redis's tokens was emptied too, so the tokens the others gave back found no
 * instance with room and went round until the flood ended (88-95 of 100). Now the units left in
 * the share at such a refusal (the refused request's own included) are kept here, for credits
 * only: a credit that the share would have admitted is admitted by that room, and the room is
 * never bet. Both bounds hold: from above, every late admission is still charged to one unit of
 * its instance's share (the room is units the share had and no longer has; the most left at any
 * refusal, never a sum, so never more than one share), and a bet still needs the share itself;
 * from below, the instance with room takes the tokens the others give back. (A token is given
 * back at this instance's next late request that its share refuses, not at the token's reply:
 * under a flood that request comes a few ms later, and giving it back at the reply gained
 * nothing in the tables of {@code LateReplyLedgerTest}.)
 *
 * <p><b>A share lent is not a share spent.</b> Each request takes its unit of the share before its
 * call is sent ({@link FailurePolicyStore}), and gives it back if it is held; under a flood an
 * instance has as many requests between the two as it has request threads (22 in the benchmark,
 * four of them up to {@code max-wait} in the bulkhead). So when its share is down to its last few
 * units, a request decided late usually finds the share refusing it because others hold those
 * units, not because they are spent; giving this instance's tokens back to Redis then sent them
 * away from an instance with room, and they went round the instances until the flood ended (with
 * replies 1 s late, {@link LateReplyTrace} showed instances that admitted 29 and 30 of their 33
 * giving back 26 and 38 tokens: 92 of 100). So the ledger counts the units its requests in flight
 * hold ({@link Key#shareInFlight}), and gives tokens back only when none do: the next of those
 * requests, the share admitting it, spends a token here (or, held, gives its unit back, and the
 * next request takes it). Bounds: from above nothing changes, a token is still spent only where
 * the share (or the room kept at a refusal) admits; from below, a token waits here at most until
 * the requests holding units are decided (one {@code max-wait} at most) or it expires ({@link
 * #CREDIT_NANOS}), and then goes back as before.
 *
 * <p><b>A token given back is the other instances'.</b> Put back in the bucket, a refund went to
 * whichever call reached Redis next, and that was most often the giver's own: its request threads
 * send their next calls as soon as the last are decided, right behind the refund on its
 * connection, and its share being spent, it gave the token back again one reply delay later
 * ({@link LateReplyTrace}, replies 1 s late: the two instances whose shares were spent gave 38
 * and 33 tokens back and had 71 and 66 granted to their own calls, the one with room 28; 91 of
 * 100). So where other instances share the limit a refund is this instance's gift ({@code
 * gcra.lua}'s {@code refund}), which only another instance's call that the bucket refuses takes,
 * as the refund would have given it back then (never beyond a full bucket; a bucket found full
 * drops the gifts, and gifts nobody else came for in 2 s are anyone's). Bounds unchanged: a gift
 * is one token Redis counted and no request has, spent once.
 *
 * <p>Why this and not the alternatives issue 28 weighed: reservations taken ahead on Redis (as
 * {@code lease-tokens} does for the hot path) would need a second write per key in every
 * algorithm's script and would not help the case that matters most to "slow is not down", a key
 * whose first call is already late (nothing was reserved for it); and a local admission charged
 * back to Redis as a debt when its late reply says refused bounds the next period, not the one
 * that was exceeded. The credits are the reservations, taken by the calls that are late anyway:
 * no extra round trip, and a request Redis answers in time costs one map lookup and two short
 * locks of its key more.
 *
 * <p>A request the share admits late is a debt until its reply says Redis counted it (and stays
 * one if Redis refused it): credits are spent only beyond this instance's bets that are not
 * settled, so a bet that proves to be on top of the limit is paid back before a credit admits
 * more. A call with no reply to come (lost with its connection, never sent because the queue of
 * late calls is full, or on a backend a reload retired) is decided the same way, with no credit to
 * come of it. Credits last {@link #CREDIT_NANOS} from the last token granted (as a lease's tokens
 * do), then are given up; a debt stays until paid (or the key is forgotten).
 *
 * <p>Threads: request threads send, decide and note in-time answers; Lettuce's event loop notes
 * late replies. Each key's fields are guarded by its own monitor, held only for a few reads and
 * writes of them: nothing else is called under it (the suppliers are read before), so the event
 * loop never waits on more than that. Memory: one small entry per key seen in the last {@link
 * #KEY_IDLE_NANOS}, at most {@code maxKeys}; an entry dropped while its calls are in flight (the
 * cache full) is settled by them alone, and the key starts afresh (its debts forgotten: bounded
 * by the share still).
 */
final class LateReplyLedger {

  /** How long a credit may be spent: as long as a {@link TokenLeaseStore} lease. */
  static final long CREDIT_NANOS = TokenLeaseStore.LEASE_NANOS;

  /** A key not decided for this long is forgotten (a fresh entry is conservative enough). */
  static final long KEY_IDLE_NANOS = TimeUnit.SECONDS.toNanos(30);

  /** Retry-After of a request refused while its call is held: a credit may come by then. */
  private static final long HELD_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Gives tokens of a key back to Redis, without waiting for its reply; never throws. */
  interface Refunds {
    /**
     * @param othersOnly for the other instances' calls only: this instance's own next calls,
     *     which reach Redis right behind the refund on its connection, must not take it again
     * @return false when the refund could not be sent at all (not connected, too many calls
     *     outstanding): the tokens stay here, to be spent through the share or given back later
     */
    boolean refund(String key, long cost, boolean othersOnly);
  }

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
    /** The key, for a refund to Redis. */
    final String name;
    /** Calls of the key sent and not yet answered (nor known to have no reply to come). */
    int outstanding;
    /** Calls sent so far, and the latest of them whose reply was noted. */
    long sent;
    long notedCall;
    /** When Redis last answered a call of the key in time (0: never). */
    long inTimeAt;
    /** Whether, when and what Redis last said of the key (its latest call's answer). */
    boolean answered;
    long answeredAt;
    long remaining;
    /** Whether the latest answer was a refusal, and until when it said no token is left. */
    boolean refused;
    long refusedUntil;
    /**
     * When {@link #remaining} was read here, and the round trip of the call that brought it: the
     * bets it covers are counted in those round trips (see {@link LateReplyLedger#roundsSince}).
     */
    long remainingAt;
    long remainingRoundTrip;
    /**
     * What the other instances were seen spending of the key in one round trip of this
     * instance's calls (tokens; 0 until seen): what Redis said is left fell by more than this
     * instance's own calls between two of its answers at least a round trip apart ({@link
     * LateReplyLedger#seeOthersSpend}). The earlier of those answers: its call, remaining and
     * when it came ({@code seen} false: none, or a refusal since, which says no count).
     */
    long othersPerRound;
    boolean seen;
    long seenCall;
    long seenRemaining;
    long seenAt;
    /** The cost of this instance's latest request of the key: what each of its calls spends. */
    long lastCost = 1;
    /**
     * Tokens Redis counted for this instance that no request here has, less this instance's bets
     * not settled yet (negative: a debt). Positive credits are given up at {@code creditsUntil},
     * {@link LateReplyLedger#CREDIT_NANOS} after the last token came; a debt stays until paid.
     */
    long credits;
    long creditsUntil;
    /**
     * The part of a positive {@link #credits} granted to calls sent before the share last bet
     * because Redis was silent: spent only where the share admits too (never more than credits).
     */
    long creditsThroughShare;
    /** The latest call sent when the share last bet because Redis was silent (0: never). */
    long silentBetThrough;
    /**
     * How long after {@link #remainingAt} the latest grant said the key is whole again (its
     * {@code resetNanos}; 0: at once): what the limit refills meanwhile is the silent share's too
     * ({@link LateReplyLedger#silentShareWithin}).
     */
    long remainingReset;
    /**
     * Units the share bet while Redis was silent whose replies are still to come: calls after
     * the one whose answer said {@link #remaining} (replies come in the order sent), so not in it.
     */
    long silentBets;
    /**
     * Units the share bet while Redis was silent on calls with no reply to come (not sent, lost):
     * not in {@link #remaining} until a grant of a call sent after them is noted (the latest call
     * sent then: {@code silentNoReplyThrough}).
     */
    long silentBetsNoReply;
    long silentNoReplyThrough;
    /**
     * What this instance's share had not spent when Redis refused a call of the key in time (and
     * {@link FailurePolicyStore} emptied the share, which then bets nothing more): room in which
     * credits, tokens Redis counted, are still spent; never a bet.
     */
    long roomForCredits;
    /**
     * Units of the share taken by this instance's requests whose calls are in flight, not decided
     * yet: the share still has them (a request held gives its unit back, one admitted keeps it),
     * though a request that finds the share empty meanwhile is refused by it.
     */
    long shareInFlight;
    /** How the key's calls went here, for a benchmark ({@link LateReplyTrace}); null when off. */
    final long[] counts = LateReplyTrace.countsOrNull();
    /** The counts last printed (the trace's, under the same lock). */
    long[] countsPrinted;
    /**
     * What each covered bet since the last print was made on ({@link LateReplyTrace}; null when
     * off): the figures {@link LateReplyLedger#coversEveryInstance} weighed.
     */
    final StringBuilder betsNotPrinted = counts == null ? null : new StringBuilder();

    Key(String name) {
      this.name = name;
    }
  }

  private final Clock clock;
  private final LongSupplier freshNanos;
  private final IntSupplier instances;
  private final Supplier<RedisHearing> redisHearing;
  /** Gives tokens back to Redis; null where the algorithm cannot (credits as before). */
  private final Refunds refunds;
  /**
   * How much of a key this instance's bets not yet settled may amount to while other instances
   * may spend it ({@link #withinAllowance}); {@link Long#MAX_VALUE}: no bound but what covers.
   */
  private final LongSupplier betAllowance;
  /**
   * The most the rule admits at once, all instances together (its {@code budget}; 0: unknown):
   * what a key refills to by its reset, for {@link #silentShareWithin}.
   */
  private final LongSupplier budget;
  private final Cache<String, Key> keys;
  /**
   * The shortest round trip of this rule's calls answered lately (any key; kept for {@code
   * max-wait}, then the next answer's), and when it came: what a round of the other instances is
   * taken to be when it is shorter than the round trip that brought a key's {@code remaining}
   * ({@link #roundsSince}). Written under different keys' locks: a race only keeps one of two
   * close figures.
   */
  private volatile long fastestRoundTrip;
  private volatile long fastestAt;
  private volatile boolean fastestSeen;

  /**
   * @param freshNanos how long an answer of Redis says it decides the key ({@code max-wait})
   * @param instances the instances sharing the limit now
   * @param redisAnswering whether any call got a reply within {@code max-wait}
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      BooleanSupplier redisAnswering, long maxKeys) {
    this(clock, freshNanos, instances, redisAnswering, maxKeys, null);
  }

  /**
   * @param refunds gives tokens back to Redis; null where the algorithm cannot undo one grant,
   *     which keeps the credits of before
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      BooleanSupplier redisAnswering, long maxKeys, Refunds refunds) {
    this(clock, freshNanos, instances, redisAnswering, maxKeys, refunds, () -> Long.MAX_VALUE);
  }

  /**
   * @param betAllowance how much of a key this instance's bets not yet settled may amount to
   *     while other instances may spend it: its part of what the rule may go over by ({@link
   *     FailurePolicyStore#betAllowance})
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      BooleanSupplier redisAnswering, long maxKeys, Refunds refunds, LongSupplier betAllowance) {
    this(clock, freshNanos, instances, redisAnswering, maxKeys, refunds, betAllowance, () -> 0);
  }

  /**
   * @param budget the most the rule admits at once, all instances together ({@link
   *     RedisAlgorithmStore#budget}; 0: unknown, then a key counts as refilled only at its reset):
   *     what the limit refills is the silent share's to bet ({@link #silentShareWithin})
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      BooleanSupplier redisAnswering, long maxKeys, Refunds refunds, LongSupplier betAllowance,
      LongSupplier budget) {
    this(clock, freshNanos, instances, hearing(redisAnswering), maxKeys, refunds, betAllowance,
        budget);
  }

  /**
   * @param redisHearing whether any call got a reply within {@code max-wait}, or Redis was silent
   *     while this JVM listened, or this JVM has not listened ({@link RedisHearing})
   */
  LateReplyLedger(Clock clock, LongSupplier freshNanos, IntSupplier instances,
      Supplier<RedisHearing> redisHearing, long maxKeys, Refunds refunds,
      LongSupplier betAllowance, LongSupplier budget) {
    this.clock = clock;
    this.refunds = refunds;
    this.betAllowance = betAllowance;
    this.budget = budget;
    this.redisHearing = redisHearing;
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
    /** The units of the share its request took before it was sent (0: the share refused it). */
    final long shareTaken;
    /** When it was about to be sent: its reply's round trip is measured from here. */
    final long sentAt;
    /** What kind of bet its late decision was: for {@link LateReplyTrace} only (key's lock). */
    LateReplyTrace.Bet bet = LateReplyTrace.Bet.NONE;
    /** Whether the share bet it while Redis was silent ({@link Key#silentBets}; key's lock). */
    boolean silentBet;

    Call(Key key, long number, long shareTaken, long sentAt) {
      this.key = key;
      this.number = number;
      this.shareTaken = shareTaken;
      this.sentAt = sentAt;
    }
  }

  /** A call of {@code key} is about to be sent: in flight until {@link #answered} or {@link #noReply}. */
  Call sending(String key) {
    return sending(key, 0);
  }

  /**
   * A call of {@code key} is about to be sent, its request having taken {@code shareTaken} units
   * of the share: in flight until {@link #answered}, {@link #decideLate} or {@link #noReply}.
   */
  Call sending(String key, long shareTaken) {
    long now = clock.nowNanos();
    Key k = keys.get(key, Key::new);
    synchronized (k) {
      k.outstanding++;
      k.shareInFlight += shareTaken;
      return new Call(k, ++k.sent, shareTaken, now);
    }
  }

  /** Redis answered the call in time. */
  void answered(Call call, Verdict decided) {
    answered(call, decided, 0);
  }

  /**
   * Redis answered the call in time; refused, with {@code shareLeft} units of this instance's
   * share not spent (this request's own included, if the share had admitted it), which the
   * share no longer holds (a refusal empties it): they stay here as room for credits only (the
   * most left at any refusal, never a sum of them, so never more than one share).
   */
  void answered(Call call, Verdict decided, long shareLeft) {
    answered(call, 0, decided, shareLeft);
  }

  /**
   * As {@link #answered(Call, Verdict, long)}, for a request of {@code cost} (0: nothing spent
   * here); returns true when Redis refused it and a credit of this instance's admits it instead.
   *
   * <p>Why a refusal in time spends credits: Redis refuses because its budget is spent, and the
   * tokens it granted to this instance's held calls are part of what was spent, here and nobody
   * else's. Once this instance's calls are answered in time again no late decision comes to spend
   * or give them back: with batching on, a reload under a flood left 7 such credits unspent on
   * one instance until the flood ended (93 admitted of 100; BENCHMARKS.md, section 7, h-batch3).
   * So a refusal in time spends one as a late decision would (where the room kept at Redis's
   * refusal admits, or a credit free of the share), else gives them back to Redis for the other
   * instances when the room cannot spend them: the same bounds as a late decision's credits.
   */
  boolean answered(Call call, long cost, Verdict decided, long shareLeft) {
    long now = clock.nowNanos();
    Key k = call.key;
    long refund = 0;
    boolean spent = false;
    synchronized (k) {
      k.outstanding--;
      k.shareInFlight -= call.shareTaken;
      if (cost > 0) {
        k.lastCost = cost;
      }
      note(k, call, decided, now);
      noteRoundTrip(now - call.sentAt, now);
      k.inTimeAt = now;
      LateReplyTrace.count(k.counts, decided.allowed
          ? LateReplyTrace.Count.IN_TIME_GRANTED : LateReplyTrace.Count.IN_TIME_REFUSED, 1);
      if (!decided.allowed && shareLeft > k.roomForCredits) {
        k.roomForCredits = shareLeft;
      }
      if (cost > 0 && !decided.allowed && k.credits > 0) {
        refund = expireCredits(k, now);
        boolean roomAdmits = k.roomForCredits >= cost;
        if (creditAdmits(k, cost, roomAdmits)) {
          // Charged as a late decision's credit is: to the share's unit this request took (now
          // in the room), or to the room when the credit may be spent only where the share admits.
          if (roomAdmits
              && (call.shareTaken >= cost || k.credits - k.creditsThroughShare < cost)) {
            k.roomForCredits -= cost;
            LateReplyTrace.count(k.counts, LateReplyTrace.Count.CREDIT_FROM_ROOM, 1);
          }
          debit(k, cost);
          LateReplyTrace.count(k.counts, LateReplyTrace.Count.CREDIT, 1);
          spent = true;
        } else if (refunds != null && k.credits > 0 && k.shareInFlight < cost) {
          // The room cannot spend them: back to Redis, for the other instances' calls.
          refund += takeCredits(k);
        }
      }
    }
    if (refund > 0) {
      giveBack(k, refund);
    }
    return spent;
  }

  /** No reply will come for the call (not sent, lost with its connection, or not readable). */
  void noReply(Call call) {
    Key k = call.key;
    synchronized (k) {
      k.outstanding--;
      k.shareInFlight -= call.shareTaken;
    }
  }

  /** Answering or silent, as {@code redisAnswering} says (a JVM that always listens). */
  static Supplier<RedisHearing> hearing(BooleanSupplier redisAnswering) {
    return () -> redisAnswering.getAsBoolean() ? RedisHearing.ANSWERING : RedisHearing.SILENT;
  }

  /**
   * Decides a request whose call is late into {@code verdict}, as the class comment says: {@code
   * share} is the local share's verdict, already taken for it; {@code reply} is what Redis will
   * have decided of the call, null when no reply is to come (lost, not sent); {@code notRun} is
   * called if the reply says the call did not run (its script was not cached: {@code NOSCRIPT})
   * after the request was admitted here without a token of Redis's, so that it is charged there
   * (nothing else would count it).
   *
   * @return how it was decided
   */
  LateDecision decideLate(Call call, long cost, Verdict share, Verdict verdict,
      CompletionStage<Verdict> reply, Runnable notRun) {
    // Read before the key's lock, which Lettuce's event loop takes too.
    long now = clock.nowNanos();
    long fresh = freshNanos.getAsLong();
    RedisHearing heard = redisHearing.get();
    boolean answering = heard != RedisHearing.SILENT;
    long sharing = Math.max(1, instances.getAsInt());
    long allowance = betAllowance.getAsLong();
    long whole = budget.getAsLong();
    Key k = call.key;
    LateDecision how;
    LateReplyTrace.Bet bet = LateReplyTrace.Bet.NONE; // the path a bet took, for the trace
    long retryNanos;
    long refund;
    synchronized (k) {
      k.lastCost = Math.max(1, cost);
      k.shareInFlight -= call.shareTaken; // decided now: kept (admitted) or given back (held)
      refund = expireCredits(k, now);
      boolean roomAdmits = share.allowed || k.roomForCredits >= cost;
      if (refunds != null && !roomAdmits && k.credits > 0 && k.shareInFlight < cost) {
        // This instance's share is spent: its tokens go back to Redis, to the next call of any
        // instance (one whose share has room, or whose bet Redis refused), not kept here unspent.
        // (Not while other requests of this instance hold units of the share, taken before their
        // calls were sent: the share is not spent, only lent to them, and the next of them to be
        // decided spends a token here. Given back then, the tokens of an instance with room went
        // round the instances until the flood ended: 92 of 100 with replies 1 s late.)
        refund += takeCredits(k);
      }
      if (creditAdmits(k, cost, roomAdmits)) {
        if (!share.allowed && k.credits - k.creditsThroughShare < cost) {
          k.roomForCredits -= cost; // spent through the share's room kept at Redis's refusal
          LateReplyTrace.count(k.counts, LateReplyTrace.Count.CREDIT_FROM_ROOM, 1);
        }
        debit(k, cost);
        how = LateDecision.CREDIT;
      } else if (!k.answered || now - k.answeredAt >= fresh) {
        if (heard == RedisHearing.NOT_LISTENING) {
          how = LateDecision.HELD; // this JVM has not read what came (class comment)
          LateReplyTrace.count(k.counts, LateReplyTrace.Count.NOT_LISTENING_HELD, 1);
        } else if (!answering && refusedNow(k, now)) {
          how = LateDecision.HELD; // Redis's refusal holds while it is silent (class comment)
        } else if (!answering && share.allowed && !silentShareWithin(k, now, sharing, cost, whole)) {
          how = LateDecision.HELD; // past its part of what Redis last said is left (class comment)
          LateReplyTrace.count(k.counts, LateReplyTrace.Count.SILENT_SHARE_HELD, 1);
        } else if (!answering) {
          how = LateDecision.SHARE;
          bet = LateReplyTrace.Bet.SHARE;
        } else if (share.allowed && covers(share.remaining, sharing - 1, k.outstanding, cost)) {
          // (No allowance: nothing of the key was answered within max-wait, see withinAllowance.)
          how = LateDecision.COVERED;
          bet = LateReplyTrace.Bet.BEFORE_ANSWER;
          LateReplyTrace.count(k.counts, LateReplyTrace.Count.COVERED_BEFORE_ANSWER, 1);
        } else {
          how = LateDecision.HELD;
        }
      } else if (share.allowed && coversEveryInstance(k, now, sharing, cost, roundLately(now))
          && withinAllowance(k, cost, sharing, allowance)) {
        how = LateDecision.COVERED;
        bet = k.inTimeAt != 0 && now - k.inTimeAt < fresh
            ? LateReplyTrace.Bet.COVERED_IN_TIME : LateReplyTrace.Bet.COVERED_NO_IN_TIME;
      } else {
        how = LateDecision.HELD;
      }
      retryNanos = Math.max(HELD_RETRY_NANOS, k.refusedUntil - now);
      if (k.counts != null && share.allowed && bet != LateReplyTrace.Bet.NONE) {
        traceBet(k, call, bet, now, answering, sharing, allowance, share.remaining);
      }
      if (share.allowed && (how == LateDecision.SHARE || how == LateDecision.COVERED)) {
        // A bet: a debt until its reply says Redis counted it, so that no credit is spent while
        // a bet of this instance may still prove to be on top of the limit.
        debit(k, cost);
        if (how == LateDecision.SHARE) {
          k.silentBetThrough = k.sent;
          k.silentBets += cost; // not in what Redis last said is left until its reply comes
          call.silentBet = true;
        }
      }
      if (k.counts != null) {
        countDecision(k.counts, how, share.allowed, reply == null);
      }
    }
    if (refund > 0) {
      giveBack(k, refund);
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
   * For {@link LateReplyTrace}: what a bet (the share's, or a covered one) was made on, under the
   * key's lock, before its debt: the path {@link #decideLate} took ({@code bet}: Redis silent,
   * before any answer of the key, covered with or without a call of the key answered in time
   * within {@code max-wait}), and what this instance knew then. Reads only; the decision is made
   * already.
   */
  private void traceBet(Key k, Call call, LateReplyTrace.Bet bet, long now, boolean answering,
      long sharing, long allowance, long shareLeft) {
    call.bet = bet;
    if (bet == LateReplyTrace.Bet.COVERED_NO_IN_TIME) {
      LateReplyTrace.count(k.counts, LateReplyTrace.Count.COVERED_NO_IN_TIME, 1);
    }
    if (k.betsNotPrinted == null || k.betsNotPrinted.length() >= 6000) {
      return;
    }
    long lately = roundLately(now);
    k.betsNotPrinted.append(" [").append(bet.name().toLowerCase(java.util.Locale.ROOT))
        .append(" call=").append(call.number).append(" sent_ago_ms=")
        .append((now - call.sentAt) / 1_000_000).append(" remaining=").append(k.remaining)
        .append(" age_ms=").append(k.answered ? (now - k.remainingAt) / 1_000_000 : -1)
        .append(" rt_ms=").append(k.remainingRoundTrip / 1_000_000)
        .append(" lately_ms=").append(lately == Long.MAX_VALUE ? -1 : lately / 1_000_000)
        .append(" rounds=").append(k.answered ? roundsSince(k, now, lately) : 0)
        .append(" outstanding=").append(k.outstanding).append(" instances=").append(sharing)
        .append(" others_per_round=").append(k.othersPerRound)
        .append(" seen=").append(k.seen).append(" share_left=").append(shareLeft)
        .append(" in_time_ago_ms=").append(k.inTimeAt == 0 ? -1 : (now - k.inTimeAt) / 1_000_000)
        .append(" answered_ago_ms=").append(k.answered ? (now - k.answeredAt) / 1_000_000 : -1)
        .append(" credits=").append(k.credits).append(" allowance=").append(allowance)
        .append(" silent_bets=").append(k.silentBets + k.silentBetsNoReply)
        .append(" answering=").append(answering)
        .append(']');
  }

  /**
   * How many round trips of the call that brought what Redis last said is left have passed since
   * it came, the one it came in included. {@link #covers} assumes the other instances have as
   * many calls in flight as this one; they send about that many again each round trip, so what
   * Redis said must cover that many rounds of them. It was trusted for a whole {@code max-wait}
   * (1 s) as one round, so an instance whose calls went late after answers in time (starved of
   * CPU) could bet on a remaining the others, answered in time, had spent many round trips over
   * ({@code LateReplyLedgerTest}). Not what went over in {@code reload-deny} (102-107 of 100
   * batched, BENCHMARKS.md section 7, h-ledger): those bets came in a flood's first quarter
   * second on a remaining a few ms old, while this instance had fewer calls in flight than the
   * others; counting rounds does not see that. With every reply late the round trip is the delay
   * and each reply renews the remaining: one round, as before; a key decided now and then on a
   * slow Redis still bets on a remaining that covers the rounds passed. An instance alone counts
   * one round whatever the age: nobody else spends what Redis said.
   *
   * <p>A round is the shorter of that call's round trip and the shortest of this rule's answers
   * lately ({@link #roundLately}): the others' round is not this instance's when its own is long
   * for its own reasons (starved of CPU, its batched decisions queued behind the window) while
   * theirs is not. An instance whose answer came 600 ms after its call (in time, the timeout 1 s),
   * its first a millisecond after, bet its next calls, late, on that {@code remaining} as one or
   * two rounds old, while two instances answered at once had spent all of it: 104 of 100, a call
   * per decision and batched ({@code CoveredBetOnASlowPathTest}). A path slow for everyone (every
   * reply late) has its shortest round trip lately as long as the others': as before.
   */
  static long roundsSince(Key k, long now, long roundLately) {
    long round = Math.min(Math.max(1, k.remainingRoundTrip), Math.max(1, roundLately));
    return 1 + Math.max(0, now - k.remainingAt) / round;
  }

  /**
   * The shortest round trip of this rule's answers within the last {@code max-wait}
   * ({@link #fastestRoundTrip}); {@link Long#MAX_VALUE} when none came (each key's own then).
   */
  private long roundLately(long now) {
    return fastestSeen && now - fastestAt < freshNanos.getAsLong()
        ? fastestRoundTrip : Long.MAX_VALUE;
  }

  private void noteRoundTrip(long roundTrip, long now) {
    if (!fastestSeen || roundTrip <= fastestRoundTrip
        || now - fastestAt >= freshNanos.getAsLong()) {
      fastestRoundTrip = roundTrip;
      fastestAt = now;
      fastestSeen = true;
    }
  }

  /**
   * Whether what Redis last said is left covers every instance's calls in flight, for each round
   * trip since it came ({@link #roundsSince}): this instance's own, and the others' as many as
   * this one's each ({@code (instances - 1) x outstanding}) or, when more, what they were seen
   * spending in a round trip ({@link Key#othersPerRound}).
   *
   * <p>Why the others' spending seen, not only this instance's calls in flight: at a flood's
   * start an instance starved of CPU has few calls in flight (8-15: its request threads have not
   * sent theirs yet) while the others, answered in time, have 22 each; it bet on a remaining a
   * few ms old that covered three times its own, and Redis refused the bets (102-107 of 100 in
   * busy batched {@code reload-deny} passes, BENCHMARKS.md section 7, h-ledger and h-flight).
   * Counting rounds did not see it: the remaining was young. What Redis's count fell by between
   * two answers, less this instance's calls between them, is what the others spent: a figure of
   * theirs, not a guess from this instance's own. It only ever asks more of a covered bet: until
   * seen (a key's first answers, a slow Redis's first round), or where the others spend less
   * than this instance has in flight, covers is as before. An instance that counts itself alone
   * is taken at its word only while nobody else was seen spending the key: the count is what the
   * last heartbeat read (every 5 s, and later on a starved host), so the instances that started
   * since are not in it (h-batch6: the one busy batched pass of 111 of 100 had an instance that
   * learnt of the two others only after its first late decisions).
   */
  private static boolean coversEveryInstance(Key k, long now, long instances, long cost,
      long roundLately) {
    if (countsAlone(k, instances)) {
      return covers(k.remaining, 1, k.outstanding, cost); // nobody else spends it: one round
    }
    // Counted alone but seen spent by others: the count is a heartbeat old (an instance started
    // since, or this one's heartbeats late on a starved host, when a flood's start bets most).
    try {
      long own = Math.multiplyExact(k.outstanding, cost);
      long others = Math.max(Math.multiplyExact(instances - 1, own), k.othersPerRound);
      return k.remaining >= Math.multiplyExact(roundsSince(k, now, roundLately),
          Math.addExact(own, others));
    } catch (ArithmeticException tooMany) {
      return false;
    }
  }

  /**
   * Learns from an answer that granted a call what the others spend in a round trip: what
   * Redis's count fell by since the answer seen last, at least a round trip earlier, less this
   * instance's calls between the two (each of the key's latest cost), scaled to one round trip.
   * A count that rose (the bucket refilled, a token given back) or a refusal starts afresh; the
   * last figure stays until a new one is seen.
   */
  static void seeOthersSpend(Key k, long callNumber, long remaining, long roundTrip, long now) {
    if (!k.seen || remaining > k.seenRemaining) {
      k.seen = true;
      k.seenCall = callNumber;
      k.seenRemaining = remaining;
      k.seenAt = now;
      return;
    }
    long elapsed = now - k.seenAt;
    if (elapsed < Math.max(1, roundTrip)) {
      return; // answers of one batch, or moments apart: too short a time to tell a rate
    }
    long own;
    try {
      own = Math.multiplyExact(callNumber - k.seenCall, k.lastCost);
    } catch (ArithmeticException tooMany) {
      own = Long.MAX_VALUE;
    }
    long others = Math.max(0, k.seenRemaining - remaining - own);
    k.othersPerRound = (long) ((double) others * Math.max(1, roundTrip) / elapsed);
    k.seenCall = callNumber;
    k.seenRemaining = remaining;
    k.seenAt = now;
  }

  /**
   * Whether a covered bet of {@code cost} leaves this instance's bets not settled within its
   * {@code allowance}: what bounds the bets by construction, where {@link #coversEveryInstance}
   * only estimates. A covered bet is on tokens nobody owns yet: what Redis last said is left,
   * which the other instances, answered in time, may spend before this instance's late calls
   * reach Redis, however fast (an instance starved of CPU reads its answers late and measures
   * every round trip long, so no count of rounds or of the others' spending seen from here
   * bounds what they spend meanwhile: 113 of 100 when one instance bet 15 times on a remaining
   * the others had spent, BENCHMARKS.md section 7, h-bets). Each bet is a debt here ({@link
   * #credits} below zero) until its reply says Redis counted it, and one Redis refused stays a
   * debt until a token Redis grants this instance pays it; so what this instance has admitted
   * over Redis's count is never more than its debt, and no covered bet is made that would take
   * the debt past the allowance. All instances together then go over by at most the sum of
   * their allowances ({@code FailurePolicyStore} gives each {@code 1/20} of the rule's budget,
   * divided among the instances), whatever the others do. What the allowance refuses is held,
   * not lost: a token Redis grants the held call is a credit for the next late request. Alone
   * (nobody else seen spending the key) a covered bet is bounded by what Redis said already:
   * only this instance's own calls spend it.
   *
   * <p>Whether or not a call of the key was answered in time lately: an instance none of whose
   * calls comes in time (starved of CPU from the flood's start, so that its own replies are all
   * it hears) cannot tell its lateness from Redis's, and the others, answered in time, spend what
   * its late replies say at any pace. Exempting it (h-bets: "every call of the key late for
   * {@code max-wait}: Redis itself is late, the others' calls as late") let it bet every call it
   * had in flight on a remaining the others then spent ({@code LateReplyLedgerTest}: 15 of 15
   * over the limit at 100; h-trace). Where every reply is late for everyone the allowance costs
   * nothing that the tables measure: a bet settles one reply delay later, and the held calls'
   * tokens are credits in between. Bets on a key not yet answered within {@code max-wait} (its
   * first calls) are not bound by it: there the share covering the others' calls in flight is
   * all there is, and bounding them cost the every-reply-late tables 2-20 tokens of 100.
   */
  private static boolean withinAllowance(Key k, long cost, long instances, long allowance) {
    if (countsAlone(k, instances)) {
      return true;
    }
    return k.credits - cost >= -allowance;
  }

  /**
   * Whether the share may bet {@code cost} more while Redis is silent (for this instance) on a key
   * whose latest answer was a grant: only within this instance's part, {@code 1 / instances}, of
   * what that grant said is left plus what the limit has refilled since ({@code budget - remaining}
   * over the grant's {@code resetNanos}, linearly; all of it once the reset has passed), less the
   * share's bets while silent that the grant does not count (their replies to come, or none to
   * come). By construction: every instance that bets on the same grant bets at most its part,
   * so together they bet at most what Redis said is left, however unevenly Redis's tokens went
   * before (the shares left add up to more than that when an instance took more than its share:
   * exactly what a starved instance bet on top of the limit, h-trace's {@code M-10} 9 bets on a
   * remaining of 6). A key never answered, or whose latest answer was a refusal past its {@code
   * Retry-After}, is the share's as before; so is a grant whose reset has come (the limit whole
   * again: a long silence never starves a share the limit allows).
   *
   * <p>What it does not bound: bets on a grant that the other instances, answered in time, spent
   * after it came (a remaining of 75 or 89 read a second before: each instance still bets up to a
   * third of it). Nothing an instance hears tells those apart from a Redis frozen right after the
   * grant, where that third is what slow-is-not-down owes it.
   */
  static boolean silentShareWithin(Key k, long now, long instances, long cost, long budget) {
    if (!k.answered || k.refused) {
      return true;
    }
    long since = Math.max(0, now - k.remainingAt);
    if (since >= k.remainingReset) {
      return true; // whole again (or said to be at once)
    }
    double refilled = budget > k.remaining
        ? (double) (budget - k.remaining) * since / k.remainingReset : 0;
    double bets = (double) k.silentBets + k.silentBetsNoReply + cost;
    return bets * instances <= k.remaining + refilled;
  }

  /** Whether what Redis last said of the key is a refusal whose {@code Retry-After} runs still. */
  private static boolean refusedNow(Key k, long now) {
    return k.answered && k.refused && now - k.refusedUntil < 0;
  }

  /**
   * Whether this instance may take itself for the key's only spender: it counts no other
   * instance, and has seen nobody else spend the key between two answers (the count is a
   * heartbeat old: an instance started since, or this one's heartbeats late on a starved host).
   */
  private static boolean countsAlone(Key k, long instances) {
    return instances == 1 && k.othersPerRound == 0;
  }

  /**
   * Whether {@code left} covers {@code instances} instances' calls in flight, as many as this
   * one's each ({@code outstanding}).
   */
  private static boolean covers(long left, long instances, long outstanding, long cost) {
    try {
      return left >= Math.multiplyExact(Math.multiplyExact(instances, outstanding), cost);
    } catch (ArithmeticException tooMany) {
      return false;
    }
  }

  /**
   * The late call's reply came ({@code decided}), or none will (null). Redis counted the call: a
   * bet's debt is settled, a request admitted by a credit has its own token in place of the one
   * it spent, and a held call's token is a credit. No reply to come: the bet is no longer owed
   * here (nothing to learn of it), and a held call has no token.
   */
  private void lateReply(
      Call call, long cost, LateDecision how, boolean admittedHere, Verdict decided) {
    long now = clock.nowNanos();
    Key k = call.key;
    long refund = 0;
    synchronized (k) {
      k.outstanding--;
      if (call.silentBet) {
        k.silentBets -= cost;
        if (decided == null) {
          // Not counted by Redis (not sent; or lost, perhaps run): until a later call's grant.
          k.silentBetsNoReply += cost;
          k.silentNoReplyThrough = k.sent;
        }
      }
      if (decided != null) {
        note(k, call, decided, now);
        noteRoundTrip(now - call.sentAt, now);
      }
      if (decided != null && k.counts != null) {
        LateReplyTrace.count(k.counts, decided.allowed
            ? (admittedHere ? LateReplyTrace.Count.LATE_GRANT_ADMITTED_HERE
                : LateReplyTrace.Count.LATE_GRANT_REFUSED_HERE)
            : (admittedHere ? LateReplyTrace.Count.LATE_REFUSAL_ADMITTED_HERE
                : LateReplyTrace.Count.LATE_REFUSAL_REFUSED_HERE), 1);
      }
      if (decided != null && !decided.allowed && admittedHere) {
        LateReplyTrace.count(k.counts, call.bet.refused(), 1);
      }
      if (decided == null && admittedHere && call.bet != LateReplyTrace.Bet.NONE) {
        LateReplyTrace.count(k.counts, LateReplyTrace.Count.NO_REPLY_BET, 1);
      }
      boolean bet = admittedHere && how != LateDecision.CREDIT;
      boolean counted = decided == null ? bet : decided.allowed;
      if (counted && (admittedHere || how == LateDecision.HELD
          || refunds != null)) { // (refused here, by the share: its token is one to give back)
        refund = expireCredits(k, now);
        addCredit(k, cost, now, refunds != null || call.number <= k.silentBetThrough);
      }
      // (a bet Redis refused stays a debt: paid back from the next credit)
    }
    if (refund > 0) {
      giveBack(k, refund);
    }
  }

  /**
   * Refunds {@code amount} of the key's tokens to Redis; kept here if it cannot be sent now, for
   * another lease's time (spent through the share, or given back at the next try).
   */
  private void giveBack(Key k, long amount) {
    // For the others only: this instance gives a token back when it cannot spend it (its share
    // spent, or the token unspent for a lease's time), and its own next calls, queued right
    // behind the refund, mostly took it again (LateReplyTrace, replies 1 s late), a reply delay
    // lost each time. Alone, it gives back to itself, for later.
    boolean sent = refunds.refund(k.name, amount, instances.getAsInt() > 1);
    if (!sent || k.counts != null) {
      long now = clock.nowNanos();
      synchronized (k) {
        if (!sent) {
          addCredit(k, amount, now, true);
        }
        LateReplyTrace.count(k.counts, sent
            ? LateReplyTrace.Count.REFUNDED : LateReplyTrace.Count.REFUND_NOT_SENT, amount);
      }
    }
  }

  /** Counts a late decision for the trace. */
  private static void countDecision(
      long[] counts, LateDecision how, boolean shareAdmits, boolean noReply) {
    LateReplyTrace.Count what;
    switch (how) {
      case CREDIT:
        what = LateReplyTrace.Count.CREDIT;
        break;
      case SHARE:
        what = shareAdmits ? LateReplyTrace.Count.SHARE_BET : LateReplyTrace.Count.SHARE_REFUSED;
        break;
      case COVERED:
        what = LateReplyTrace.Count.COVERED_BET;
        break;
      default:
        what = shareAdmits
            ? LateReplyTrace.Count.HELD_SHARE_ADMITS : LateReplyTrace.Count.HELD_SHARE_REFUSES;
    }
    LateReplyTrace.count(counts, what, 1);
    if (noReply) {
      LateReplyTrace.count(counts, LateReplyTrace.Count.NO_REPLY, 1);
    }
  }

  /**
   * Whether a credit admits a request of {@code cost}: one granted to a call sent before the
   * share's last silent bet only where the share admits the request too (and keeps its charge).
   */
  private static boolean creditAdmits(Key k, long cost, boolean shareAdmits) {
    return k.credits >= cost && (k.credits - k.creditsThroughShare >= cost || shareAdmits);
  }

  /** Every credit of {@code k}, taken (none left, through the share or not): how many. */
  private static long takeCredits(Key k) {
    long all = k.credits;
    k.credits = 0;
    k.creditsThroughShare = 0;
    return all;
  }

  /** A credit spent, or a bet's debt: those through the share are the last spent. */
  private static void debit(Key k, long cost) {
    k.credits -= cost;
    k.creditsThroughShare = Math.min(k.creditsThroughShare, Math.max(0, k.credits));
  }

  /**
   * A token Redis counted for this instance: pays a debt first, else is a credit for the next
   * late request; through the share if the call was sent before the share's last silent bet.
   */
  private static void addCredit(Key k, long cost, long now, boolean throughShare) {
    k.credits += cost;
    long added = throughShare ? cost : 0;
    k.creditsThroughShare = Math.min(k.creditsThroughShare + added, Math.max(0, k.credits));
    k.creditsUntil = now + CREDIT_NANOS;
  }

  /**
   * Credits not spent within {@link #CREDIT_NANOS} of the last token are given up (not debts):
   * returned, to go back to Redis where the algorithm can take them.
   */
  private long expireCredits(Key k, long now) {
    if (k.credits > 0 && now - k.creditsUntil >= 0) {
      long expired = takeCredits(k);
      LateReplyTrace.count(k.counts, LateReplyTrace.Count.EXPIRED, expired);
      return refunds == null ? 0 : expired;
    }
    return 0;
  }

  private static void note(Key k, Call call, Verdict decided, long now) {
    k.answered = true;
    k.answeredAt = now;
    if (call.number < k.notedCall) {
      return; // an earlier call's answer, read late: Redis has said more since
    }
    k.notedCall = call.number;
    k.remaining = decided.allowed ? Math.max(0, decided.remaining) : 0;
    k.refused = !decided.allowed;
    k.remainingAt = now;
    k.remainingRoundTrip = now - call.sentAt;
    if (decided.allowed) {
      k.remainingReset = Math.max(0, decided.resetNanos);
      if (call.number > k.silentNoReplyThrough) {
        k.silentBetsNoReply = 0; // sent after them: what it says is left counts them (owed)
      }
      seeOthersSpend(k, call.number, k.remaining, k.remainingRoundTrip, now);
    } else {
      k.refusedUntil = now + Math.max(0, decided.retryAfterNanos);
      k.seen = false; // a refusal says no count
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

  /** The keys followed now, for {@link LateReplyTrace}. */
  Collection<Key> keysForTrace() {
    return keys.asMap().values();
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

  /** Of {@link #credits}, those spent only where the share admits too; for tests. */
  long creditsThroughShare(String key) {
    Key k = keys.getIfPresent(key);
    if (k == null) {
      return 0;
    }
    synchronized (k) {
      return k.creditsThroughShare;
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
