package io.tollgate.stores.redis;

import io.tollgate.limiters.CalendarQuota;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.Concurrency;
import io.tollgate.limiters.FixedWindow;
import io.tollgate.limiters.Gcra;
import io.tollgate.limiters.SlidingLog;
import io.tollgate.limiters.SlidingWindow;
import io.tollgate.limiters.ExactMath;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.stores.LimiterStore;
import io.tollgate.limiters.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule's keys on Redis for one algorithm: each decision is one {@code EVALSHA} of the
 * algorithm's script, which mirrors the local algorithm's {@code decide} with the same integer
 * arithmetic on Redis {@code TIME}, so that a rule gives the same decisions on {@code backend:
 * local} and {@code backend: redis}. Every write sets the key to expire after the algorithm's
 * {@link RateLimitAlgorithm#idleNanosUntilFresh()}, when forgetting it loses nothing.
 *
 * <p>When Redis cannot answer, {@link #decide} throws {@link BackendUnavailableException} within the
 * timeout; wrap the store in a {@link FailurePolicyStore} to apply the rule's {@code on-failure}.
 *
 * <p>Lua numbers are doubles: each subclass checks at construction that its script's values stay
 * below 2^53 and refuses, naming the rule, a rule whose numbers could leave that range.
 */
public abstract class RedisAlgorithmStore implements LimiterStore {

  /** Integers up to this are exact in a double. */
  static final long LUA_EXACT = 1L << 53;

  /** The longest period (in the script's time unit) the window and log scripts handle exactly. */
  static final long LUA_PERIOD_MAX = 1L << 52;

  static final String DECIDE = "decide";
  static final String ADJUST = "adjust";
  static final String RELEASE = "release";
  static final String REFUND = "refund";

  private final RedisBackend backend;
  private final String ruleName;
  /** The rules file's name of the algorithm: part of every key ({@link RedisKeys}). */
  private final String algorithmName;
  /** Tests only: a clock whose reading is sent as "now" instead of Redis TIME. */
  private final Clock timeOverride;
  /**
   * {@link RedisKeys#bucketKey} of this store's keys around the client's digest, made once from the
   * rule's name for its keys (the rule of the rules file, whichever budget this is): a decision
   * hashes its client key and joins three strings ({@link #ruleKey}).
   */
  private String keyHead;
  private final String keyTail;
  /** What follows the rule's key for this budget ({@link RedisKeys#budgetSuffix}). */
  private String keySuffix = "";
  /** An outbound rule's partner holds, read in each decision; null for every other rule. */
  private volatile RedisPartnerHolds partnerHolds;

  RedisAlgorithmStore(
      RedisBackend backend, String ruleName, String algorithmName, Clock timeOverride) {
    this.backend = backend;
    this.ruleName = ruleName;
    this.algorithmName = algorithmName;
    this.keyHead = RedisKeys.clientTagHead(ruleName);
    this.keyTail = "}:" + algorithmName;
    this.timeOverride = timeOverride;
  }

  /**
   * The Redis store of a rule budget's algorithm.
   *
   * @throws IllegalArgumentException for an algorithm with no script (calendar quotas), or numbers
   *     the script cannot compute exactly
   */
  public static RedisAlgorithmStore of(
      RedisBackend backend, String ruleName, RateLimitAlgorithm<?> algorithm) {
    return of(backend, ruleName, algorithm, null);
  }

  /**
   * The Redis store of one budget of rule {@code ruleName}, shown as {@code budgetName} ({@code
   * api/1s}), whose keys end in {@link RedisKeys#budgetSuffix budgetSuffix(plan, period)}.
   */
  public static RedisAlgorithmStore ofBudget(
      RedisBackend backend,
      String ruleName,
      String budgetName,
      String plan,
      String period,
      RateLimitAlgorithm<?> algorithm) {
    return ofBudget(backend, ruleName, budgetName, plan, period, algorithm, null);
  }

  /** As above; with a non-null {@code timeOverride} (tests only) the scripts read it, not TIME. */
  public static RedisAlgorithmStore ofBudget(
      RedisBackend backend,
      String ruleName,
      String budgetName,
      String plan,
      String period,
      RateLimitAlgorithm<?> algorithm,
      Clock timeOverride) {
    RedisAlgorithmStore store = of(backend, budgetName, algorithm, timeOverride);
    store.keyHead = RedisKeys.clientTagHead(ruleName);
    store.keySuffix = RedisKeys.budgetSuffix(plan, period);
    return store;
  }

  /** As above; with a non-null {@code timeOverride} (tests only) the scripts read it, not TIME. */
  static RedisAlgorithmStore of(
      RedisBackend backend, String ruleName, RateLimitAlgorithm<?> algorithm, Clock timeOverride) {
    if (algorithm instanceof Gcra) { // and TokenBucket, a Gcra without max-delay
      return new RedisGcraStore(backend, ruleName, (Gcra) algorithm, timeOverride);
    } else if (algorithm instanceof FixedWindow) {
      return RedisPeriodCountStore.fixedWindow(
          backend, ruleName, (FixedWindow) algorithm, timeOverride);
    } else if (algorithm instanceof SlidingWindow) {
      return new RedisSlidingWindowStore(
          backend, ruleName, (SlidingWindow) algorithm, timeOverride);
    } else if (algorithm instanceof SlidingLog) {
      return RedisPeriodCountStore.slidingLog(
          backend, ruleName, (SlidingLog) algorithm, timeOverride);
    } else if (algorithm instanceof Concurrency) {
      return new RedisConcurrencyStore(backend, ruleName, (Concurrency) algorithm, timeOverride);
    } else if (algorithm instanceof CalendarQuota) {
      return new RedisCalendarStore(
          backend, ruleName, (CalendarQuota) algorithm,
          timeOverride == null ? Clock.system() : timeOverride, timeOverride);
    }
    throw new IllegalArgumentException(
        "rule '" + ruleName + "': " + algorithm.getClass().getSimpleName()
            + " is not available with backend: redis");
  }

  /**
   * Checks, without connecting, that the script can run this algorithm exactly.
   *
   * @throws IllegalArgumentException naming the rule, as {@link #of} would
   */
  public static void checkFitsLua(String ruleName, RateLimitAlgorithm<?> algorithm) {
    of(null, ruleName, algorithm, null);
  }

  /** The local algorithm this store's script mirrors. */
  public abstract RateLimitAlgorithm<?> algorithm();

  /**
   * The same algorithm with its limit (and burst) divided among {@code instances}: the {@code
   * on-failure: local} share of one instance.
   */
  abstract RateLimitAlgorithm<?> dividedAmong(int instances);

  /**
   * The most the rule admits at once, all instances together (a full bucket's burst, a window's
   * limit, the concurrency limit): what {@link LateReplyLedger}'s allowance for bets is a part of.
   */
  abstract long budget();

  /** {@code spec} with limit and burst divided among {@code instances}, at least 1 each. */
  static LimitSpec divided(LimitSpec spec, int instances) {
    return new LimitSpec(
        Math.max(1, spec.limit() / instances),
        spec.periodNanos(),
        Math.max(1, spec.burst() / instances));
  }

  /**
   * Gives back a permit this store took on Redis, if it holds one for the key; false when it holds
   * none (the request was decided elsewhere, by the {@code on-failure: local} fallback).
   */
  boolean releaseShared(String key, long cost) {
    return false;
  }

  /** The time argument of the scripts: empty for Redis TIME, or the test clock's reading. */
  final String now() {
    return timeOverride == null ? "" : Long.toString(timeOverride.nowNanos());
  }

  /**
   * One call's ARGV for the scripts that share the layout {@code op, now, amount, parameters...}:
   * a copy of {@code template} (the rule's parameters, fixed at construction) with the first three
   * filled in.
   */
  final String[] argv(String[] template, String op, long amount) {
    String[] argv = template.clone();
    argv[0] = op;
    argv[1] = now();
    argv[2] = Long.toString(amount);
    return argv;
  }

  /** PEXPIRE milliseconds for a state fresh again after {@code idleNanos}. */
  final long ttlMillis(long idleNanos) {
    long ttl = ExactMath.ceilDiv(idleNanos, 1_000_000L);
    if (timeOverride != null) {
      // Test time and real time differ: keys must not expire in real time before test time says.
      ttl = Math.max(ttl, 3_600_000L);
    }
    return Math.max(1, ttl);
  }

  /**
   * Runs this budget's part of {@code script} ({@code argv}: the algorithm script's own ARGV, {@code
   * op, now, amount, parameters...}) alone, and returns its reply.
   */
  final List<Object> eval(RedisScript script, String key, String... argv) {
    List<Object> reply =
        backend.eval(script, ruleKey(key), budgetsArgv(argv[0], argv[1], argv[2], this, argv));
    return replyOf(reply, 0, script);
  }

  /** This budget's decisions read (and refuse for) the waits {@code holds} keeps on Redis. */
  void readPartnerHolds(RedisPartnerHolds holds) {
    this.partnerHolds = holds;
  }

  /** The key the driver ({@code budgets.lua}) is called on: the rule's, for one client. */
  final String ruleKey(String clientKey) {
    return keyHead + RedisKeys.digest(clientKey) + keyTail;
  }

  /** This budget's key for one client: where its state is. */
  public final String keyOf(String clientKey) {
    return ruleKey(clientKey) + keySuffix;
  }

  /**
   * {@code budgets.lua}'s ARGV: {@code op, now, amount, n}, then each budget's key suffix, the
   * number of its parameters and the parameters (its ARGV from index 3 on).
   */
  static String[] budgetsArgv(String op, String now, String amount, Object... budgetsAndArgvs) {
    // Sized first, filled once: this runs for every decision on Redis.
    int size = 4;
    for (int i = 1; i < budgetsAndArgvs.length; i += 2) {
      size += 2 + ((String[]) budgetsAndArgvs[i]).length - 3;
    }
    String[] out = new String[size];
    out[0] = op;
    out[1] = now;
    out[2] = amount;
    out[3] = Integer.toString(budgetsAndArgvs.length / 2);
    int at = 4;
    for (int i = 0; i < budgetsAndArgvs.length; i += 2) {
      RedisAlgorithmStore budget = (RedisAlgorithmStore) budgetsAndArgvs[i];
      String[] argv = (String[]) budgetsAndArgvs[i + 1];
      out[at++] = budget.keySuffix;
      out[at++] = Integer.toString(argv.length - 3);
      System.arraycopy(argv, 3, out, at, argv.length - 3);
      at += argv.length - 3;
    }
    return out;
  }

  /** Budget {@code index}'s reply in the driver's flat reply ({@code length, reply...} each). */
  static List<Object> replyOf(List<Object> flat, int index, RedisScript script) {
    int at = 0;
    for (int i = 0; ; i++) {
      int length = (int) number(flat, at, script);
      if (at + 1 + length > flat.size()) {
        throw new BackendUnavailableException(
            "unexpected reply from " + script.name() + ": " + flat, null, 0);
      }
      if (i == index) {
        return flat.subList(at + 1, at + 1 + length);
      }
      at += 1 + length;
    }
  }

  /**
   * Whether {@link #decideArgv} and {@link #applyDecision} let a {@link RedisBudgetGroup} decide
   * this budget together with the rule's others in one call.
   */
  boolean decidesInGroups() {
    return false;
  }

  /** The script this store runs. */
  RedisScript script() {
    throw new UnsupportedOperationException(getClass().getSimpleName());
  }

  /** The algorithm script's ARGV of a decision of {@code cost}. */
  String[] decideArgv(long cost) {
    throw new UnsupportedOperationException(getClass().getSimpleName());
  }

  /** Writes a decision's reply into {@code verdict}. */
  void applyDecision(List<Object> reply, Verdict verdict) {
    throw new UnsupportedOperationException(getClass().getSimpleName());
  }

  /**
   * A decision of {@code cost} of {@code key} by this store's script alone, written into {@code
   * verdict}; for an outbound rule, in the same call, refused for as long as a partner's wait holds
   * the key ({@link RedisPartnerHolds}). A late reply's failure says what Redis will have decided
   * ({@link #withLateDecision}).
   */
  final void decideOnRedis(RedisScript script, String key, long cost, Verdict verdict) {
    checkCost(cost);
    String[] argv = decideArgv(cost);
    RedisPartnerHolds holds = partnerHolds;
    List<Object> reply;
    try {
      if (holds == null) {
        reply = eval(script, key, argv);
      } else {
        List<Object> flat = backend.eval(script, new String[] {ruleKey(key), holds.keyOf(key)},
            budgetsArgv(argv[0], argv[1], argv[2], this, argv));
        long held = holds.heldIn(key, flat);
        if (held > 0) {
          verdict.refuse(0, held, held); // nothing was charged
          return;
        }
        reply = replyOf(flat, 0, script);
      }
    } catch (BackendUnavailableException e) {
      throw withLateDecision(e, 0, script);
    }
    applyDecision(reply, verdict);
  }

  /**
   * A decision of {@code cost} of {@code key}, sent without waiting for it: {@code done} gets
   * Redis's verdict, or the failure, on the client's I/O thread (or at once on this one when the
   * call cannot be sent: not connected, the breaker open, too many calls outstanding). For a
   * {@link TokenLeaseStore}'s lease taken ahead, which no request waits on when it is sent. No
   * timeout of its own: the reply comes, or the connection's failure does.
   *
   * @return false, with {@code done} not called, where this store cannot decide in the background
   *     (no backend, an outbound rule's partner holds, a script not run by {@code budgets.lua})
   */
  final boolean decideInBackground(
      String key, long cost, java.util.function.BiConsumer<Verdict, Throwable> done) {
    if (backend == null || partnerHolds != null || !decidesInGroups()) {
      return false;
    }
    checkCost(cost);
    RedisScript script = script();
    String[] argv = decideArgv(cost);
    backend.decideInBackground(script, ruleKey(key),
        budgetsArgv(argv[0], argv[1], argv[2], this, argv), (flat, failure) -> {
          if (failure != null) {
            done.accept(null, failure);
            return;
          }
          Verdict decided = new Verdict();
          try {
            applyDecision(replyOf(flat, 0, script), decided);
          } catch (RuntimeException unreadable) {
            done.accept(null, unreadable);
            return;
          }
          done.accept(decided, null);
        });
    return true;
  }

  /**
   * {@code failure} with Redis's decision of its late call, read as budget {@code index} of the
   * driver's reply when it comes; {@code failure} itself when no reply is to come.
   */
  final BackendUnavailableException withLateDecision(
      BackendUnavailableException failure, int index, RedisScript script) {
    java.util.concurrent.CompletionStage<Object> late = failure.lateReply();
    if (late == null) {
      return failure;
    }
    return failure.withLateDecision(late.thenApply(flat -> {
      @SuppressWarnings("unchecked")
      List<Object> list = flat instanceof List ? (List<Object>) flat : singletonList(flat);
      Verdict decided = new Verdict();
      applyDecision(replyOf(list, index, script), decided);
      return decided;
    }));
  }

  private static List<Object> singletonList(Object value) {
    List<Object> list = new ArrayList<>(1);
    list.add(value);
    return list;
  }

  /**
   * Sends a cost correction to the scripts that share the {@code op, now, amount, ...} layout; a
   * zero delta changes nothing, so it costs no round trip.
   */
  final void adjustOnRedis(RedisScript script, String[] template, String key, long delta) {
    if (delta != 0) {
      eval(script, key, argv(template, ADJUST, delta));
    }
  }

  /**
   * Whether {@link #refundInBackground} gives a token Redis granted back exactly, so that a late
   * call's token that no request here can spend goes back to every instance ({@link
   * LateReplyLedger}); false where the algorithm's script cannot undo one grant alone (a window
   * counted in a window since gone, a log's entry), which keeps the token as this instance's credit.
   */
  boolean refundsGrants() {
    return false;
  }

  /**
   * Gives back to Redis {@code cost} that it granted to a call of {@code key} whose request was
   * refused here, without waiting (a late reply's callback runs on the client's event loop, and
   * no request waits on it); best effort once sent: lost with the connection. Only where {@link
   * #refundsGrants}.
   *
   * @param othersOnly for the other instances' calls only, not this one's (which would take it
   *     again first: its calls queue on its connection behind the refund); false where no other
   *     instance shares the limit
   * @return false when it could not be sent at all (not connected, too many calls outstanding)
   */
  boolean refundInBackground(String key, long cost, boolean othersOnly) {
    throw new UnsupportedOperationException(getClass().getSimpleName());
  }

  /** This instance's name to the scripts ({@link RedisBackend#callerId}); empty without one. */
  final String callerId() {
    return backend == null ? "" : backend.callerId();
  }

  /**
   * Sends a cost correction of {@code delta} in the background, as {@link #adjustOnRedis} does in
   * the foreground; its reply, or failure, is not waited for.
   *
   * @return false when it was not sent at all: the backend failed it at once, on this thread
   */
  final boolean adjustInBackground(
      RedisScript script, String[] template, String key, long delta) {
    return delta == 0 || sendInBackground(script, key, argv(template, ADJUST, delta));
  }

  /**
   * Runs {@code argv} (the algorithm script's own, as {@link #eval} takes) in the background; its
   * reply, or failure, is not waited for.
   *
   * @return false when it was not sent at all: the backend failed it at once, on this thread
   */
  final boolean sendInBackground(RedisScript script, String key, String[] argv) {
    if (backend == null) {
      return false;
    }
    Thread sender = Thread.currentThread();
    boolean[] sending = {true};
    boolean[] notSent = {false};
    backend.evalInBackground(script, ruleKey(key), budgetsArgv(argv[0], argv[1], argv[2], this,
        argv), (reply, failure) -> {
          if (failure != null && sending[0] && Thread.currentThread() == sender) {
            notSent[0] = true; // failed within evalInBackground: never reached the connection
          }
        });
    sending[0] = false;
    return !notSent[0];
  }

  /**
   * Writes a reply {@code {allowed, remaining, retryNanos, resetNanos[, nextUnitNanos]}} into
   * {@code verdict}; a negative retry means the cost can never be allowed, and is answered with a
   * whole period. Without a next unit (a fixed window's) it is the reset.
   */
  static void applyNanosReply(
      List<Object> reply, RedisScript script, long periodNanos, Verdict verdict) {
    long allowed = number(reply, 0, script);
    long remaining = number(reply, 1, script);
    long retryNanos = number(reply, 2, script);
    long resetNanos = number(reply, 3, script);
    if (allowed == 1 && reply.size() > 4) {
      verdict.allow(remaining, resetNanos, number(reply, 4, script));
    } else if (allowed == 1) {
      verdict.allow(remaining, resetNanos);
    } else {
      verdict.refuse(remaining, retryNanos < 0 ? periodNanos : retryNanos, resetNanos);
    }
  }

  static long number(List<Object> reply, int index, RedisScript script) {
    if (reply == null || reply.size() <= index || !(reply.get(index) instanceof Long)) {
      throw new BackendUnavailableException(
          "unexpected reply from " + script.name() + ": " + reply, null, 0);
    }
    return (Long) reply.get(index);
  }

  static void checkCost(long cost) {
    if (cost < 0) {
      throw new IllegalArgumentException("cost must not be negative: " + cost);
    }
  }

  /** The refusal of a rule the script cannot compute exactly. */
  static IllegalArgumentException tooLargeForLua(String ruleName, String what) {
    return new IllegalArgumentException(
        "rule '" + ruleName + "': " + what + " cannot be computed exactly on redis (Lua numbers are"
            + " exact only up to 2^53); use smaller numbers or backend: local");
  }

  /** Not counted: Redis holds the keys, and they expire on their own. Always 0. */
  @Override
  public long estimatedKeys() {
    return 0;
  }

  public String ruleName() {
    return ruleName;
  }

  public String algorithmName() {
    return algorithmName;
  }

  public RedisBackend backend() {
    return backend;
  }
}
