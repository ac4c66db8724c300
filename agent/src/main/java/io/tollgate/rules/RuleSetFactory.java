package io.tollgate.rules;

import io.tollgate.config.Backend;
import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.CountedState;
import io.tollgate.config.Durations;
import io.tollgate.config.ForgeableConditions;
import io.tollgate.config.Mode;
import io.tollgate.config.PathGlob;
import io.tollgate.config.PenaltyConfig;
import io.tollgate.config.PlansConfig;
import io.tollgate.config.RedisSettings;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.ResponseConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.http.RefusalBody;
import io.tollgate.diagnostics.ProxySetupAdvisor;
import io.tollgate.keys.ClientAddressResolver;
import io.tollgate.keys.RequestKeyResolver;
import io.tollgate.diagnostics.metrics.LeaseCounts;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.limiters.AdaptiveConcurrency;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.logging.AgentLog;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.redis.RedisPartnerHolds;
import io.tollgate.stores.redis.RedisAlgorithmStore;
import io.tollgate.stores.redis.RedisBackend;
import io.tollgate.stores.redis.RedisPenaltyBox;
import io.tollgate.stores.BudgetGroup;
import io.tollgate.stores.LocalBudgetGroup;
import io.tollgate.stores.LocalLimiterStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the {@link RuleSet} of a parsed rules file: compiles matchers and keys, and gives each rule
 * its store, keeping the store (and so every client's count) of each rule that did not change.
 */
public final class RuleSetFactory {

  /** The status of an adaptive-concurrency refusal unless its {@code response} says otherwise. */
  static final int ADAPTIVE_STATUS = 503;

  /** An adaptive rule's limit moving by more than a factor of 2: once per 10 s per rule at most. */
  private static final RateLimitedLog LIMIT_LOG = new RateLimitedLog(10_000);

  /**
   * The longest file whose budgets' fingerprints are made when a reload compares them ({@link
   * BudgetFingerprints#whenCompared}), keeping each rule's parsed form till then (~1 KB a rule:
   * 10,000 rules kept 27.4 MB instead of 16.9); a longer file's are made at the build, where the
   * table's one-off ~10 ms is a small part of building it.
   */
  static final int LATE_FINGERPRINTS_UP_TO = 1_000;

  private final Clock clock;
  private final StoreProvider stores;
  private final boolean validating;
  /**
   * Whether each budget gets the fingerprints a later reload compares ({@link CountedState}):
   * not for rules that are never reloaded, where they were a tenth of {@code validate}'s main
   * thread and of what it allocated for 10,000 rules.
   */
  private final boolean fingerprinting;

  public RuleSetFactory(Clock clock) {
    this(clock, new StoreProvider(clock), false, true);
  }

  private RuleSetFactory(
      Clock clock, StoreProvider stores, boolean validating, boolean fingerprinting) {
    this.clock = clock;
    this.stores = stores;
    this.validating = validating;
    this.fingerprinting = fingerprinting;
  }

  /**
   * Tests only: a factory whose Redis scripts read {@code clock} instead of Redis {@code TIME}, so
   * that a test on a manual clock sees the same times on {@code backend: redis} as locally.
   */
  public static RuleSetFactory withRedisReadingTheClock(Clock clock) {
    return new RuleSetFactory(clock, new StoreProvider(clock, true, clock), false, true);
  }

  /**
   * A factory for {@code validate}: it builds everything the agent builds from a rules file
   * (matchers, keys, client-address resolver, allowlists, algorithms, stores), so that a file it
   * accepts is one the agent applies, but it connects to nothing and logs nothing.
   */
  public static RuleSetFactory withoutConnecting(Clock clock) {
    return new RuleSetFactory(clock, new StoreProvider(clock, false), true, true);
  }

  /**
   * {@code validate}'s factory: as {@link #withoutConnecting}, for rules that are built once and
   * never reloaded, so without the fingerprints a reload compares; it refuses to build over
   * previous rules.
   */
  public static RuleSetFactory forOneBuild(Clock clock) {
    return new RuleSetFactory(clock, new StoreProvider(clock, false), true, false);
  }

  /**
   * The rules of {@code config}; a rule keeps of its state in {@code previous} what {@link
   * CountedState} says a reload keeps.
   *
   * @throws ConfigException naming each rule this version cannot apply, with its line
   */
  public RuleSet build(RulesConfig config, RuleSet previous) throws ConfigException {
    if (previous != null && !fingerprinting) {
      throw new IllegalStateException("a factory for one build does not reload rules");
    }
    List<ConfigProblem> problems = check(config);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    stores.useBackendOf(config);
    try {
      return buildOnBackend(config, previous);
    } catch (ConfigException | RuntimeException e) {
      stores.rolledBack();
      throw e;
    }
  }

  /**
   * The rules last built are in force now: a backend they no longer use is closed once its
   * decisions drain, and changed timings are applied to a kept connection.
   */
  public void applied() {
    stores.committed();
  }

  /**
   * The Redis backend of the rules last built, or null when they count locally: its health is
   * what {@code status} shows. Read without waiting for a reload in progress.
   */
  public RedisBackend redisBackend() {
    return stores.backend();
  }

  /** How many instances share {@link #redisBackend()}, or null without one. */
  public io.tollgate.stores.redis.InstanceRegistry instanceRegistry() {
    return stores.instances();
  }

  private RuleSet buildOnBackend(RulesConfig config, RuleSet previous) throws ConfigException {
    ClientAddressResolver clients = ClientAddresses.resolverFor(config.clientIp());
    if (!validating) {
      warnAboutSettings(clients, config);
    }
    List<Rule> rules = new ArrayList<>();
    Map<String, LeaseCounts> leasing = new LinkedHashMap<>();
    CountedState.OfFile ofFile = CountedState.ofFile(config);
    boolean lateFingerprints = config.rules().size() <= LATE_FINGERPRINTS_UP_TO;
    for (RuleConfig ruleConfig : config.rules()) {
      boolean shadow = ruleConfig.effectiveMode(config.mode()) == Mode.SHADOW;
      Rule kept = previous == null ? null : previous.find(ruleConfig.name());
      PenaltyTracker penalty = null;
      if (ruleConfig.penalty() != null) {
        // As the budgets': made when a reload compares it (this one, when it keeps a rule);
        // validate's build never compares it
        PenaltyFingerprint fp =
            lateFingerprints || !fingerprinting
                ? PenaltyFingerprint.whenCompared(ofFile, ruleConfig)
                : PenaltyFingerprint.now(ofFile, ruleConfig);
        penalty =
            kept != null && kept.penalty() != null
                    && kept.penalty().fingerprint().equals(fp.text())
                ? kept.penalty()
                : stores.penaltyFor(config, ruleConfig, fp);
      }
      RequestKeyResolver keyResolver =
          RequestKeyResolver.of(ruleConfig.key(), clients)
              .withFallback(ruleConfig.keyFallback(), clients)
              .normalizing(ruleConfig.keyNormalizeOrDefault());
      Rule.Shared shared =
          new Rule.Shared(
              ruleConfig.name(),
              new RequestMatcher(
                  ruleConfig.pathGlobs().toArray(new PathGlob[0]), ruleConfig.methods(),
                  ruleConfig.hosts(), ruleConfig.headers()),
              keyResolver,
              ruleConfig.cost(),
              shadow,
              ruleConfig.quotaHeadersOrDefault(),
              ruleConfig.algorithm().yamlName(),
              RouteTemplates.normalize(ruleConfig.route()),
              Allowlist.of(ruleConfig.allow(), ruleConfig.key(), keyResolver, clients),
              penalty,
              ruleConfig.costHeader(),
              ruleConfig.countWhen(),
              ruleConfig.skip() == null ? null : RequestMatcher.of(ruleConfig.skip()),
              refusalBody(ruleConfig.response().over(config.response()),
                  ruleConfig.algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY),
              ruleConfig.partitionKey(),
              clientShare(ruleConfig, clients, kept));
      PlansConfig plans = ruleConfig.plans();
      if (plans == null) {
        rules.add(
            Rule.of(
                shared,
                budgets(config, ofFile, lateFingerprints, ruleConfig, shared, "",
                    ruleConfig.limits(), kept, leasing)));
      } else {
        Map<String, Rule.Budget[]> byPlan = new LinkedHashMap<>();
        for (Map.Entry<String, List<LimitSpec>> e : plans.limits().entrySet()) {
          byPlan.put(
              e.getKey(),
              budgets(config, ofFile, lateFingerprints, ruleConfig, shared, e.getKey(),
                  e.getValue(), kept, leasing));
        }
        rules.add(Rule.withPlans(shared, plans, byPlan));
      }
    }
    if (!validating) {
      showAdaptiveRules(rules);
      TollgateMetrics.showLeases(leasing);
    }
    return new RuleSet(
        rules, config.source(), config.headers(), clients.trustedProxies().ignoresHeaders());
  }

  /**
   * The rule's {@code per-client} share, or null when off; the previous rule's when it counts the
   * same way, so that the requests in flight across a reload stay counted (they give back to the
   * share they took from). The settings that start the shares afresh are those {@link
   * CountedState} marks so: {@code per-client} and {@code per-client-key}.
   */
  private static ClientShare clientShare(
      RuleConfig ruleConfig, ClientAddressResolver clients, Rule kept) {
    if (ruleConfig.perClientPercent() == 0) {
      return null;
    }
    RequestKeyResolver clientKey = RequestKeyResolver.of(ruleConfig.perClientKey(), clients);
    ClientShare before = kept == null ? null : kept.clientShare();
    return before != null && before.sameAs(ruleConfig.perClientPercent(), clientKey.description())
        ? before
        : new ClientShare(ruleConfig.perClientPercent(), clientKey);
  }

  /**
   * The rule's refusal: 429 unless {@code response} says otherwise; for adaptive-concurrency 503,
   * since the app is full, not the client over its quota.
   */
  private static RefusalBody refusalBody(ResponseConfig response, boolean adaptive) {
    Integer status = response.status();
    if (status == null && adaptive) {
      status = ADAPTIVE_STATUS;
    }
    return status == null && response.bodyParts() == null
        ? RefusalBody.DEFAULT
        : new RefusalBody(status, response.bodyParts(), response.contentType());
  }

  /**
   * The budgets of one set of limits (the rule's, or a plan's): one store each, kept from the
   * previous rules when its counting did not change. Those that lease tokens from Redis go into
   * {@code leasing} with their leases' counters, for the metrics and {@code status}.
   */
  private Rule.Budget[] budgets(
      RulesConfig config,
      CountedState.OfFile ofFile,
      boolean lateFingerprints,
      RuleConfig ruleConfig,
      Rule.Shared shared,
      String plan,
      List<LimitSpec> limits,
      Rule kept,
      Map<String, LeaseCounts> leasing) {
    int n = limits.size();
    Rule.Budget[] out = new Rule.Budget[n];
    String[] ids = new String[n];
    String[] names = new String[n];
    String[] periods = new String[n];
    BudgetFingerprints[] fingerprints = new BudgetFingerprints[n];
    List<RateLimitAlgorithm<?>> algorithms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      LimitSpec limit = limits.get(i);
      periods[i] = n == 1 ? "" : Durations.format(limit.periodNanos());
      String suffix = n == 1 ? "" : "/" + periods[i];
      ids[i] = plan + suffix;
      names[i] = ruleConfig.name() + suffix;
      algorithms.add(algorithmOf(ruleConfig, limit, shared.shadow, limitLog(ruleConfig.name())));
      fingerprints[i] = !fingerprinting ? null
          : lateFingerprints ? BudgetFingerprints.whenCompared(ofFile, ruleConfig, ids[i], limit)
          : BudgetFingerprints.now(ofFile, ruleConfig, ids[i], limit);
    }
    Rule[] previous = new Rule[n];
    boolean allKept = kept != null;
    for (int i = 0; i < n && allKept; i++) {
      previous[i] = kept.budgetMatching(ids[i], fingerprints[i].ofBudget());
      allKept =
          previous[i] != null
              && previous[i].group() == previous[0].group()
              && (previous[i].group() == null
                  || (previous[i].groupIndex() == i && previous[i].group().size() == n));
    }
    BudgetGroup group = null;
    if (n > 1) {
      if (allKept && previous[0].group() != null) {
        group = previous[0].group();
      } else {
        group =
            stores.groupFor(
                config, ruleConfig, Arrays.asList(names), plan, Arrays.asList(periods),
                algorithms);
        carryOver(group, kept, ids, fingerprints);
      }
    }
    for (int i = 0; i < n; i++) {
      LimiterStore store;
      if (group != null) {
        store = group.budget(i);
      } else {
        Rule previousBudget =
            kept == null ? null : kept.budgetMatching(ids[i], fingerprints[i].ofBudget());
        if (previousBudget != null && previousBudget.group() == null) {
          store = previousBudget.store();
        } else {
          store =
              stores.storeFor(config, ruleConfig, names[i], plan, periods[i], algorithms.get(i));
          carryOver(store,
              kept == null ? null : kept.budgetCarryingTo(ids[i], fingerprints[i].carriedOverBy()));
        }
      }
      if (group == null && StoreProvider.leases(config, algorithms.get(i))) {
        leasing.put(names[i],
            new RuleLeases(config.redis().leaseTokens(), stores.leaseCounters(names[i])));
      }
      out[i] =
          new Rule.Budget(
              names[i], ids[i], store, algorithms.get(i).policy(), fingerprints[i],
              group, group == null ? 0 : i);
    }
    return out;
  }

  /**
   * A new local store takes over the counts of the budget it replaces ({@link
   * LocalLimiterStore#inheritFrom}). On Redis nothing is needed: the keys stay the same, and the
   * scripts convert a state written under other parameters when they next read it.
   */
  private static void carryOver(LimiterStore store, Rule from) {
    if (from != null
        && from.group() == null
        && store instanceof LocalLimiterStore
        && from.store() instanceof LocalLimiterStore) {
      ((LocalLimiterStore<?>) store).inheritFrom((LocalLimiterStore<?>) from.store());
    }
  }

  /** As above, for a new group of budgets: each takes over the previous budget of its id. */
  private static void carryOver(
      BudgetGroup group, Rule kept, String[] ids, BudgetFingerprints[] fingerprints) {
    if (!(group instanceof LocalBudgetGroup) || kept == null) {
      return;
    }
    int[] from = new int[ids.length];
    BudgetGroup previous = null;
    for (int i = 0; i < ids.length; i++) {
      Rule carried = kept.budgetCarryingTo(ids[i], fingerprints[i].carriedOverBy());
      from[i] = -1;
      if (carried != null
          && carried.group() instanceof LocalBudgetGroup
          && (previous == null || carried.group() == previous)) {
        previous = carried.group();
        from[i] = carried.groupIndex();
      }
    }
    if (previous != null) {
      ((LocalBudgetGroup) group).takeOver((LocalBudgetGroup) previous, from);
    }
  }

  /** The log line of an adaptive rule whose limit moved by more than a factor of 2. */
  private AdaptiveConcurrency.Listener limitLog(String rule) {
    if (validating) {
      return AdaptiveConcurrency.Listener.NONE;
    }
    // A class, not a lambda: made for every rule at start, where linking one spins a class
    return new AdaptiveConcurrency.Listener() {
      @Override
      public boolean limitMoved(int from, AdaptiveConcurrency.State state) {
        return LIMIT_LOG.log(rule, () -> "rule '" + rule + "' (adaptive-concurrency):"
            + " limit " + from + " -> " + state.limit() + "; recent latency "
            + millis(state.recentLatencyNanos()) + " ms, no-load latency "
            + millis(state.noLoadLatencyNanos()) + " ms, in flight " + state.inFlight());
      }
    };
  }

  private static String millis(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
  }

  private static RateLimitAlgorithm<?> algorithmOf(RuleConfig rule, LimitSpec limit) {
    return algorithmOf(rule, limit, false, AdaptiveConcurrency.Listener.NONE);
  }

  private static RateLimitAlgorithm<?> algorithmOf(
      RuleConfig rule, LimitSpec limit, boolean shadow, AdaptiveConcurrency.Listener listener) {
    if (rule.algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
      return new AdaptiveConcurrency(rule.adaptiveMin(), rule.adaptiveInitial(),
          rule.adaptiveMax(), rule.maxWaitNanos(), shadow, listener);
    }
    if (rule.calendar() != null) {
      return Algorithms.calendar(limit.limit(), rule.calendar(), rule.timeZone());
    }
    return Algorithms.create(
        rule.algorithm(),
        limit,
        Algorithms.Options.DEFAULTS.withMaxDelayNanos(rule.maxDelayNanos()));
  }

  /**
   * The store of one budget of an outbound rule ({@code io.tollgate.outbound}), described to the
   * stores as the rule {@code asRule} (its name, on-failure and max-keys): on the backend of the
   * rules last built, so call it between {@link #build} and {@link #applied}; in this process when
   * {@code local} (an outbound rule's {@code backend: local} in a file on Redis).
   */
  public LimiterStore outboundStore(
      RulesConfig config, RuleConfig asRule, String budgetName, String period,
      RateLimitAlgorithm<?> algorithm, boolean local) {
    return local
        ? new LocalLimiterStore<>(algorithm, clock, asRule.maxKeys())
        : stores.storeFor(config, asRule, budgetName, "", period, algorithm);
  }

  /**
   * Where an outbound rule whose stores are named {@code storeName} shares the waits its partner
   * asks: on the Redis of the rules last built, unless {@code local}; null when it shares none.
   */
  public RedisPartnerHolds outboundPartnerHolds(
      RulesConfig config, String storeName, boolean local) {
    return local ? null : stores.partnerHoldsFor(config, storeName);
  }

  /** What, besides an outbound rule's own settings, defines where its counts live. */
  public String outboundBackendFingerprint(RulesConfig config, RuleConfig asRule, boolean local) {
    return local ? "local" : stores.backendFingerprint(asRule, config);
  }

  /** The metrics show the gauges of the adaptive rules in force, these. */
  private static void showAdaptiveRules(List<Rule> rules) {
    Map<String, AdaptiveConcurrency> adaptive = new LinkedHashMap<>();
    for (Rule rule : rules) {
      if (rule.learnsFromLatency()) {
        LimiterStore store = rule.store();
        if (store instanceof LocalLimiterStore
            && ((LocalLimiterStore<?>) store).algorithm() instanceof AdaptiveConcurrency) {
          adaptive.put(rule.name(),
              (AdaptiveConcurrency) ((LocalLimiterStore<?>) store).algorithm());
        }
      }
    }
    TollgateMetrics.showAdaptive(adaptive);
  }

  /** Every limit of the rule, of every plan. */
  private static List<LimitSpec> allLimits(RuleConfig rule) {
    if (rule.plans() == null) {
      return rule.limits();
    }
    List<LimitSpec> all = new ArrayList<>();
    for (List<LimitSpec> l : rule.plans().limits().values()) {
      all.addAll(l);
    }
    return all;
  }

  /**
   * Logs what is valid but most likely a mistake (trusting every address as a proxy): when the
   * agent applies a file, and when {@code validate} checks one.
   */
  public static void warnAboutSettings(RulesConfig config) {
    warnAboutSettings(ClientAddresses.resolverFor(config.clientIp()), config);
  }

  private static void warnAboutSettings(ClientAddressResolver clients, RulesConfig config) {
    ProxySetupAdvisor.checkSettings(clients.trustedProxies(), config.source());
    for (ConfigProblem forgeable : ForgeableConditions.warnings(config)) {
      AgentLog.warn(forgeable.toString());
    }
  }

  /**
   * The problems that keep {@code config} from being applied, beyond what the parser checks;
   * empty when it can be. Connects to nothing: {@code validate} uses it too.
   */
  public List<ConfigProblem> check(RulesConfig config) {
    List<ConfigProblem> problems = new ArrayList<>();
    checkSupported(config, problems);
    for (RuleConfig ruleConfig : config.rules()) {
      try {
        for (LimitSpec limit : allLimits(ruleConfig)) {
          algorithmOf(ruleConfig, limit);
        }
      } catch (IllegalArgumentException e) {
        problems.add(
            new ConfigProblem(
                config.source(),
                ruleConfig.lineOf("limit"),
                1,
                "rule '" + ruleConfig.name() + "': " + e.getMessage()));
      }
    }
    return problems;
  }

  /**
   * What {@code backend: redis} cannot run exactly: rules whose numbers would leave the exact range
   * of their Lua script (2^53). Refused at load, by name, never approximated.
   */
  private static void checkSupported(RulesConfig config, List<ConfigProblem> problems) {
    if (config.backend() != Backend.REDIS) {
      return;
    }
    checkRedisUris(config, problems);
    for (RuleConfig rule : config.rules()) {
      if (rule.algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY) {
        problems.add(new ConfigProblem(config.source(), rule.lineOf("algorithm"), 1,
            "rule '" + rule.name() + "': adaptive-concurrency cannot run with 'backend: redis'"
                + " (line " + config.lineOf("backend") + "): its limit is a property of each"
                + " instance, learnt from that instance's own latency, so it lives in the"
                + " instance's memory only, and there is no per-rule backend to keep this one"
                + " rule local; put it in the rules file of an instance with 'backend: local'"
                + " (the default), or use 'algorithm: concurrency' for a fixed limit shared on"
                + " Redis"));
        continue;
      }
      // The scripts' own bounds (Lua numbers are exact to 2^53): the store refuses such a rule.
      for (LimitSpec limit : allLimits(rule)) {
        RateLimitAlgorithm<?> algorithm;
        try {
          algorithm = algorithmOf(rule, limit);
        } catch (IllegalArgumentException e) {
          continue; // reported by check
        }
        try {
          RedisAlgorithmStore.checkFitsLua(rule.name(), algorithm);
        } catch (IllegalArgumentException e) {
          problems.add(
              new ConfigProblem(config.source(), rule.lineOf("limit"), 1, e.getMessage()));
          break;
        }
      }
      PenaltyConfig p = rule.penalty();
      if (p != null) {
        try {
          RedisPenaltyBox.checkFitsLua(rule.name(), p.after(), p.withinNanos(), p.boxForNanos());
        } catch (IllegalArgumentException e) {
          problems.add(
              new ConfigProblem(config.source(), rule.lineOf("penalty"), 1, e.getMessage()));
        }
      }
    }
  }

  /** Addresses the Redis client would refuse (a port out of range, a password not encoded). */
  private static void checkRedisUris(RulesConfig config, List<ConfigProblem> problems) {
    RedisSettings redis = config.redis();
    if (redis == null) {
      return;
    }
    List<String> uris = new ArrayList<>(redis.cluster());
    if (redis.uri() != null) {
      uris.add(0, redis.uri());
    }
    for (String uri : uris) {
      try {
        RedisBackend.parseUri(uri);
      } catch (IllegalArgumentException e) {
        int line = config.lineOf(redis.uri() != null ? "redis.uri" : "redis.cluster");
        problems.add(new ConfigProblem(
            config.source(), line == 0 ? config.lineOf("redis") : line, 1, e.getMessage()));
      }
    }
  }
}
