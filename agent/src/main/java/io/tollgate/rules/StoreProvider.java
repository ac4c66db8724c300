package io.tollgate.rules;

import io.tollgate.config.Backend;
import io.tollgate.config.OnFailure;
import io.tollgate.config.PenaltyConfig;
import io.tollgate.config.RedisSettings;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.PenaltyBox;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.limiters.TokenBucket;
import io.tollgate.logging.AgentLog;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.LocalLimiterStore;
import io.tollgate.stores.redis.FailurePolicyStore;
import io.tollgate.stores.redis.InstanceRegistry;
import io.tollgate.stores.redis.LeaseCounters;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisAlgorithmStore;
import io.tollgate.stores.redis.RedisConnectionSettings;
import io.tollgate.stores.redis.RedisPartnerHolds;
import io.tollgate.stores.redis.RedisPenaltyBox;
import io.tollgate.stores.redis.RefusalCacheStore;
import io.tollgate.stores.redis.TokenLeaseStore;
import io.tollgate.limiters.LimitGroup;
import io.tollgate.stores.BudgetGroup;
import io.tollgate.stores.LocalBudgetGroup;
import io.tollgate.stores.redis.RedisBudgetGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Gives each rule its store: in this process, or on Redis behind the rule's on-failure policy.
 *
 * <p>Owns the one Redis connection (and the instance heartbeat that the {@code local} policy
 * divides by) for as long as the rules file names the same server. A reload that changes only
 * timings keeps it (and every count); one that changes the server connects anew before the swap
 * and closes the old connection after its decisions drain; one to {@code backend: local} closes
 * it, its threads and its instance registration.
 */
public final class StoreProvider {

  private final Clock clock;
  /** False for {@code validate}: every store is built as the agent builds it, none connects. */
  private final boolean connects;
  /** Null but in tests: what the Redis scripts read as now, instead of Redis TIME. */
  private final Clock scriptClock;
  private RedisSettings connectedTo;
  /** Volatile: the {@code status} command reads them from the attach thread, without the lock. */
  private volatile RedisBackend backend;
  private volatile InstanceRegistry instances;
  /**
   * Each leasing budget's counters, by its name, for as long as the agent runs: a reload that
   * replaces a budget's store keeps counting into them, as the rule's other counters do.
   */
  private final ConcurrentMap<String, LeaseCounters> leaseCounters = new ConcurrentHashMap<>();

  public StoreProvider(Clock clock) {
    this(clock, true);
  }

  StoreProvider(Clock clock, boolean connects) {
    this(clock, connects, null);
  }

  /** With a {@code scriptClock} (tests only), the Redis scripts read it instead of Redis TIME. */
  StoreProvider(Clock clock, boolean connects, Clock scriptClock) {
    this.clock = clock;
    this.connects = connects;
    this.scriptClock = scriptClock;
  }

  /**
   * What {@link #useBackendOf} replaced, to close once rules built without it are in force ({@link
   * #committed}), or to put back when they are not ({@link #rolledBack}); or timings to apply in
   * place. Null when the reload changes nothing of the backend.
   */
  private Change pending;

  private static final class Change {
    final RedisBackend backend;
    final InstanceRegistry instances;
    final RedisSettings settings;
    /** Only the timings changed: these are applied to the kept connection. */
    final RedisConnectionSettings retimed;

    Change(RedisBackend backend, InstanceRegistry instances, RedisSettings settings,
        RedisConnectionSettings retimed) {
      this.backend = backend;
      this.instances = instances;
      this.settings = settings;
      this.retimed = retimed;
    }
  }

  /**
   * Prepares the backend the rules file names, before its rules are built; nothing in force
   * changes until {@link #committed}. A new server is connected here, before the swap, so that
   * the new rules' first decisions find it ready (within its start-up wait); a change of timings
   * only ({@code timeout}, {@code max-wait}, {@code max-waiting-threads}) keeps the connection.
   */
  synchronized void useBackendOf(RulesConfig config) {
    // A build that failed rolled back at once; one still pending succeeded and was put in force
    // by a caller that does not say so (tests building rule sets directly): it holds.
    committed();
    if (config.backend() != Backend.REDIS) {
      if (backend != null) {
        pending = new Change(backend, instances, connectedTo, null);
        backend = null;
        instances = null;
        connectedTo = null;
      }
      return;
    }
    RedisSettings wanted = config.redis();
    RedisConnectionSettings settings = connectionSettings(wanted);
    if (!connects) {
      // The stores below are built on no backend: they reach it only when they decide.
      return;
    }
    if (backend != null && wanted.sameConnectionAs(connectedTo)) {
      if (!sameServer(connectedTo, wanted)) {
        pending = new Change(backend, instances, connectedTo, settings);
        connectedTo = wanted;
      }
      return;
    }
    pending = new Change(backend, instances, connectedTo, null);
    backend = RedisBackend.connect(settings);
    instances = new InstanceRegistry(backend);
    connectedTo = wanted;
    AgentLog.info(
        "backend redis: " + settings
            + (wanted.refusalCache() ? ", refusal-cache" : "")
            + (wanted.leaseTokens() > 1 ? ", lease-tokens " + wanted.leaseTokens() : ""));
    if (pending.backend != null && !backend.awaitConnected(settings.startupWait())) {
      AgentLog.warn("the new redis backend is not connected after "
          + settings.startupWait().toMillis() + " ms; its rules apply their on-failure until it is");
    }
  }

  /**
   * The rules built after {@link #useBackendOf} are in force: a replaced backend is closed once
   * the decisions that began on the old rules have ended (its instance registration first, so
   * that the other instances stop dividing their share by this one), and new timings are applied
   * to a kept connection.
   */
  synchronized void committed() {
    Change change = pending;
    pending = null;
    if (change == null) {
      return;
    }
    if (change.retimed != null) {
      change.backend.retime(change.retimed);
      AgentLog.info("backend redis: " + change.retimed + "; the connection and every count are kept");
      return;
    }
    if (change.backend != null) {
      InstanceRegistry leaving = change.instances;
      change.backend.closeAfterDrain(() -> {
        if (leaving != null) {
          leaving.close();
        }
      });
      if (backend == null) {
        AgentLog.info("backend local: the redis client for " + change.backend.settings().address()
            + " is closed once its last decisions end");
      }
    }
  }

  /** The rules built after {@link #useBackendOf} were not put in force: what was, stays. */
  synchronized void rolledBack() {
    Change change = pending;
    pending = null;
    if (change == null) {
      return;
    }
    if (change.retimed != null) {
      connectedTo = change.settings;
      return;
    }
    if (backend != null && backend != change.backend) {
      InstanceRegistry unused = instances;
      backend.closeAfterDrain(() -> {
        if (unused != null) {
          unused.close();
        }
      });
    }
    backend = change.backend;
    instances = change.instances;
    connectedTo = change.settings;
  }

  /** The Redis backend the rules last built decide on, or null ({@code backend: local}). */
  RedisBackend backend() {
    return backend;
  }

  /** The instance count of {@link #backend()}, or null. */
  InstanceRegistry instances() {
    return instances;
  }

  /** How the store reaches Redis and how long it waits, as the rules file's {@code redis:} says. */
  static RedisConnectionSettings connectionSettings(RedisSettings redis) {
    return (redis.cluster().isEmpty()
            ? RedisConnectionSettings.uri(redis.uri())
            : RedisConnectionSettings.cluster(redis.cluster()))
        .withTimeout(Duration.ofNanos(redis.timeoutNanos()))
        .withMaxWait(Duration.ofNanos(redis.maxWaitNanos()))
        .withMaxWaitingThreads(redis.maxWaitingThreads() > 0
            ? redis.maxWaitingThreads()
            : RedisConnectionSettings.defaultMaxWaitingThreads())
        .withTls(
            redis.tlsCaFile(),
            RedisConnectionSettings.VerifyPeer.valueOf(redis.verifyPeer().name()));
  }

  /**
   * The store of one budget of a rule ({@code budgetName}: the rule's name, or name/period), whose
   * Redis keys end in the budget's plan and period ({@link
   * io.tollgate.stores.redis.RedisKeys#budgetSuffix}, both empty for a rule of one limit).
   */
  LimiterStore storeFor(
      RulesConfig config,
      RuleConfig rule,
      String budgetName,
      String plan,
      String period,
      RateLimitAlgorithm<?> algorithm) {
    if (config.backend() != Backend.REDIS) {
      return new LocalLimiterStore<>(algorithm, clock, rule.maxKeys());
    }
    RedisAlgorithmStore shared =
        RedisAlgorithmStore.ofBudget(
            backend, rule.name(), budgetName, plan, period, algorithm, scriptClock);
    // Both rely on the token bucket's arithmetic (tokens come back only with time, a Retry-After
    // is exact); leases nearest Redis, so that the refusal cache hears a leased key's answer too.
    boolean tokenBucket = algorithm instanceof TokenBucket;
    LimiterStore decider = shared;
    if (leases(config, algorithm)) {
      decider = new TokenLeaseStore(shared, clock, config.redis().leaseTokens(), rule.maxKeys(),
          leaseCounters(budgetName));
    }
    if (tokenBucket && config.redis().refusalCache()) {
      decider = new RefusalCacheStore(decider, clock, rule.maxKeys());
    }
    return withFailurePolicy(rule, shared, decider);
  }

  /**
   * Whether a budget of {@code algorithm} leases tokens from Redis under {@code config}: a token
   * bucket on Redis with {@code lease-tokens} (a rule with several limits then decides its budgets
   * one by one, {@link #groupFor}).
   */
  static boolean leases(RulesConfig config, RateLimitAlgorithm<?> algorithm) {
    return config.backend() == Backend.REDIS
        && algorithm instanceof TokenBucket
        && config.redis().leaseTokens() > 1;
  }

  /** The lease counters of budget {@code budgetName} (made on first use, kept ever after). */
  LeaseCounters leaseCounters(String budgetName) {
    return leaseCounters.computeIfAbsent(budgetName, name -> new LeaseCounters());
  }

  /**
   * The budgets of a rule with several limits (or of one plan's), decided together; null when they
   * must be decided one by one: on Redis with {@code lease-tokens} or {@code refusal-cache}, which
   * decide a budget in this process, without Redis, for most requests.
   */
  BudgetGroup groupFor(
      RulesConfig config,
      RuleConfig rule,
      List<String> budgetNames,
      String plan,
      List<String> periods,
      List<RateLimitAlgorithm<?>> algorithms) {
    if (config.backend() != Backend.REDIS) {
      return new LocalBudgetGroup(new LimitGroup(algorithms), clock, rule.maxKeys());
    }
    boolean tokenBucket = algorithms.get(0) instanceof TokenBucket;
    if (tokenBucket && (config.redis().leaseTokens() > 1 || config.redis().refusalCache())) {
      return null;
    }
    List<RedisAlgorithmStore> shared = new ArrayList<>();
    for (int i = 0; i < algorithms.size(); i++) {
      shared.add(
          RedisAlgorithmStore.ofBudget(
              backend, rule.name(), budgetNames.get(i), plan, periods.get(i), algorithms.get(i),
              scriptClock));
    }
    if (!RedisBudgetGroup.canGroup(shared)) {
      return null;
    }
    return new RedisBudgetGroup(shared, (budget, member) -> withFailurePolicy(rule, budget, member));
  }

  private FailurePolicyStore withFailurePolicy(
      RuleConfig rule, RedisAlgorithmStore shared, LimiterStore decider) {
    InstanceRegistry registry = instances;
    return new FailurePolicyStore(
        shared,
        decider,
        rule.onFailure(),
        registry == null ? () -> 1 : registry::liveInstances,
        clock,
        rule.maxKeys());
  }

  /**
   * The rule's penalty box: on Redis when the rules file says {@code backend: redis}, so that every
   * instance counts the key's refusals and boxes it together; else in this process.
   */
  PenaltyTracker penaltyFor(
      RulesConfig config, RuleConfig rule, PenaltyFingerprint fingerprint) {
    PenaltyConfig p = rule.penalty();
    PenaltyBox box = new PenaltyBox(p.after(), p.withinNanos(), p.boxForNanos());
    if (config.backend() != Backend.REDIS) {
      return new PenaltyTracker(box, clock, rule.maxKeys(), fingerprint);
    }
    RedisPenaltyBox shared =
        new RedisPenaltyBox(backend, rule.name(), p.after(), p.withinNanos(), p.boxForNanos());
    boolean localWhenUnavailable = rule.onFailure() == OnFailure.LOCAL;
    return new PenaltyTracker(
        box, clock, rule.maxKeys(), fingerprint, shared, localWhenUnavailable);
  }

  /**
   * Where an outbound rule's partner holds are shared ({@code ruleName}: its stores' name): on
   * Redis when the rules file says {@code backend: redis}, else nowhere (null): each instance
   * holds what it learnt.
   */
  RedisPartnerHolds partnerHoldsFor(RulesConfig config, String ruleName) {
    return config.backend() == Backend.REDIS ? new RedisPartnerHolds(backend, ruleName) : null;
  }

  /** What, besides the rule itself, defines where its counts live. */
  String backendFingerprint(RuleConfig rule, RulesConfig config) {
    return config.backend() == Backend.REDIS
        ? config.redis().storeFingerprint() + " on-failure " + rule.onFailure()
        : "local";
  }

  /** Whether a reload from {@code a} to {@code b} changes nothing of the connection, timings included. */
  static boolean sameServer(RedisSettings a, RedisSettings b) {
    return a != null
        && b != null
        && String.valueOf(a.uri()).equals(String.valueOf(b.uri()))
        && a.cluster().equals(b.cluster())
        && a.timeoutNanos() == b.timeoutNanos()
        && a.maxWaitNanos() == b.maxWaitNanos()
        && a.maxWaitingThreads() == b.maxWaitingThreads()
        && String.valueOf(a.tlsCaFile()).equals(String.valueOf(b.tlsCaFile()))
        && a.verifyPeer() == b.verifyPeer();
  }
}
