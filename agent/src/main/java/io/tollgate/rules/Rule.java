package io.tollgate.rules;

import io.tollgate.config.CostConfig;
import io.tollgate.http.HeaderText;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.RateLimitHeaders;
import io.tollgate.http.RateLimitValueCache;
import io.tollgate.keys.RequestKeyResolver;
import io.tollgate.limiters.QuotaPolicy;
import io.tollgate.stores.LimiterStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One rule of the rules file, ready to decide: what it matches, how it keys, where it counts.
 *
 * <p>A rule counts against one or more budgets, each a limit with its own store: the rule itself
 * when it has one {@code limit}; {@code name/period} (such as {@code api/1s}, {@code api/1h}) for
 * each of several {@code limits}; with {@code plans}, the limits of the plan a request header
 * names. Every budget is a {@code Rule} too, sharing the rule's matching, key and settings, so that
 * verdicts, headers and logs treat them alike; {@link #owner()} is the rule of the file.
 *
 * <p>A value: {@link RuleSetFactory} makes a rule and its budgets at once, each handed at
 * construction what it keeps from the rule it replaces on a reload (stores, group, penalty box,
 * client shares), and nothing of it changes afterwards. A reload makes new rules.
 */
public final class Rule {

  /** What a rule and all of its budgets share. */
  static final class Shared {
    final String name;
    final RequestMatcher matcher;
    final RequestKeyResolver keyResolver;
    final CostConfig cost;
    final boolean shadow;
    final boolean quotaHeaders;
    /** {@code partition-key}: the RateLimit fields carry a digest of the key as {@code pk}. */
    final boolean partitionKey;
    final String algorithmName;
    final String route;
    final boolean needsRoute;
    final Allowlist allowlist;
    final PenaltyTracker penalty;
    final String costHeader;
    /** {@code count-when}: the statuses that stay charged, or null (all do). */
    final io.tollgate.config.CountWhen countWhen;
    /** The concurrency algorithms: asked on every request, so compared once here. */
    final boolean releasesAtEnd;
    /** adaptive-concurrency: learns from each request's latency and outcome. */
    final boolean adaptive;
    final io.tollgate.diagnostics.MissingKeyAdvisor missingKeys;
    /** {@code skip:}: requests this rule never counts, or null. */
    final RequestMatcher skip;
    /** The rule's {@code response} over the file's. */
    final io.tollgate.http.RefusalBody refusalBody;
    /** {@code per-client}: the most one client may hold of the rule's permits, or null (off). */
    final ClientShare clientShare;
    /** Whether the rule has a penalty box or a per-client share (asked on every decision). */
    final boolean penaltyOrShare;

    Shared(
        String name,
        RequestMatcher matcher,
        RequestKeyResolver keyResolver,
        CostConfig cost,
        boolean shadow,
        boolean quotaHeaders,
        String algorithmName,
        String route,
        Allowlist allowlist,
        PenaltyTracker penalty,
        String costHeader,
        io.tollgate.config.CountWhen countWhen,
        RequestMatcher skip,
        io.tollgate.http.RefusalBody refusalBody,
        boolean partitionKey,
        ClientShare clientShare) {
      this.partitionKey = partitionKey;
      this.clientShare = clientShare;
      this.penaltyOrShare = penalty != null || clientShare != null;
      this.countWhen = countWhen;
      this.refusalBody = refusalBody;
      this.name = name;
      this.skip = skip;
      this.matcher = matcher;
      this.keyResolver = keyResolver;
      this.cost = cost;
      this.shadow = shadow;
      this.quotaHeaders = quotaHeaders;
      this.algorithmName = algorithmName;
      this.route = route;
      this.needsRoute = route != null || keyResolver.needsRoute();
      this.allowlist = allowlist;
      this.penalty = penalty;
      this.costHeader = costHeader;
      this.adaptive =
          algorithmName.equals(io.tollgate.limiters.AlgorithmKind.ADAPTIVE_CONCURRENCY.yamlName());
      this.releasesAtEnd =
          adaptive
              || algorithmName.equals(io.tollgate.limiters.AlgorithmKind.CONCURRENCY.yamlName());
      this.missingKeys =
          new io.tollgate.diagnostics.MissingKeyAdvisor(
              name, keyResolver.description(), keyResolver.hasFallback());
    }
  }

  /**
   * What the factory decided for one budget before the rule is made: its name and id, its store
   * (kept from the rule it replaces, or new), and what a reload compares to keep or carry its
   * counts. A value: the rule is built from these once, and never changed after.
   */
  static final class Budget {
    final String name;
    final String id;
    final LimiterStore store;
    final QuotaPolicy policy;
    /**
     * What a reload compares to keep the budget's store or carry its counts over, made when a
     * reload compares it; null for rules that are never reloaded.
     */
    final BudgetFingerprints fingerprints;
    /** The group the budget is decided in together with the rule's others, or null. */
    final io.tollgate.stores.BudgetGroup group;
    final int groupIndex;

    Budget(
        String name,
        String id,
        LimiterStore store,
        QuotaPolicy policy,
        BudgetFingerprints fingerprints,
        io.tollgate.stores.BudgetGroup group,
        int groupIndex) {
      this.name = name;
      this.id = id;
      this.store = store;
      this.policy = policy;
      this.fingerprints = fingerprints;
      this.group = group;
      this.groupIndex = groupIndex;
    }

    /**
     * The rule of the file above budgets of its own: it answers for the first one (store, policy),
     * under the rule's name, in no group, carrying nothing.
     */
    static Budget standingFor(String ruleName, Budget first) {
      return new Budget(ruleName, "", first.store, first.policy,
          first.fingerprints == null ? null : first.fingerprints.carryingNothing(), null, 0);
    }
  }

  private final Shared shared;
  private final String name;
  private final String budgetId;
  private final LimiterStore store;
  private final QuotaPolicy policy;
  /**
   * Everything that defines this budget's counting, and what its counts need to be carried over
   * (the rule, its key, algorithm and backend), made when a reload compares them; null for budgets
   * built without them.
   */
  private final BudgetFingerprints fingerprints;
  /**
   * The quota headers' constant parts, made at this budget's first response and kept rather than
   * made on every response; not when the rules are built, since most rules of a long file (one
   * per tenant) answer no request for a long time, and a load of 10,000 rules spent ~6% of its
   * thread on them. Caches, not the rule's value: each is immutable (final fields), so a race
   * only makes the same value twice.
   */
  private String quotaPolicyItem;
  /** This budget's recent {@code RateLimit} values, by units left and seconds (see above). */
  private RateLimitValueCache rateLimitValues;
  /** {@link #quotaPolicyItem} with its bytes, made at the first response; a cache, not the rule's value. */
  private HeaderText quotaPolicyHeader;
  private final Rule owner;
  /** The group this budget is decided in with the rule's others (its limits, or its plan's), or null. */
  private final io.tollgate.stores.BudgetGroup group;
  /** This budget's place in {@link #group}. */
  private final int groupIndex;
  /** On the rule of the file: its budgets (of its default plan with plans); null on a budget. */
  private final Rule[] budgets;
  /** On the rule of the file: the request header that picks the plan, or null. */
  private final String planHeader;
  private final io.tollgate.config.PlansConfig plans;
  private final Map<String, Rule[]> planBudgets;
  private final List<Rule> allBudgets;
  /**
   * This budget's counters, looked up by its name on its first decision and kept, so that no
   * request looks them up again; a race only looks them up twice (the same object, whose fields
   * are final). Null until then, or when the registry is full. A cache of the registry, not part
   * of the rule's value.
   */
  private io.tollgate.diagnostics.metrics.RuleMetrics metrics;

  /** A budget of {@code owner}, one of the rule's limits. */
  private Rule(Shared shared, Budget budget, Rule owner) {
    this.shared = shared;
    this.name = budget.name;
    this.budgetId = budget.id;
    this.store = budget.store;
    this.policy = budget.policy;
    this.fingerprints = budget.fingerprints;
    this.group = budget.group;
    this.groupIndex = budget.groupIndex;
    this.owner = owner;
    this.budgets = null;
    this.planHeader = null;
    this.plans = null;
    this.planBudgets = null;
    this.allBudgets = null;
  }

  /**
   * The rule of the file, with its budgets made here, each knowing this rule as its owner: {@code
   * limits} (or only itself, when {@code ownIsItsBudget}), or with {@code plans} those of {@code
   * byPlan}.
   */
  private Rule(
      Shared shared,
      Budget own,
      boolean ownIsItsBudget,
      Budget[] limits,
      io.tollgate.config.PlansConfig plans,
      Map<String, Budget[]> byPlan) {
    this.shared = shared;
    this.name = own.name;
    this.budgetId = own.id;
    this.store = own.store;
    this.policy = own.policy;
    this.fingerprints = own.fingerprints;
    this.group = own.group;
    this.groupIndex = own.groupIndex;
    this.owner = this;
    this.plans = plans;
    if (plans == null) {
      this.budgets = ownIsItsBudget ? new Rule[] {this} : budgetsOf(shared, limits);
      this.planHeader = null;
      this.planBudgets = null;
      this.allBudgets = Collections.unmodifiableList(java.util.Arrays.asList(budgets));
    } else {
      Map<String, Rule[]> chosen = new java.util.LinkedHashMap<>();
      List<Rule> all = new ArrayList<>();
      for (Map.Entry<String, Budget[]> plan : byPlan.entrySet()) {
        Rule[] rs = budgetsOf(shared, plan.getValue());
        chosen.put(plan.getKey(), rs);
        all.addAll(java.util.Arrays.asList(rs));
      }
      this.planHeader = plans.header();
      this.planBudgets = Collections.unmodifiableMap(chosen);
      this.budgets = chosen.get(plans.defaultPlan());
      this.allBudgets = Collections.unmodifiableList(all);
    }
  }

  /** The budgets of this rule of the file (its owner), made as it is made. */
  private Rule[] budgetsOf(Shared shared, Budget[] of) {
    Rule[] out = new Rule[of.length];
    for (int i = 0; i < of.length; i++) {
      out[i] = new Rule(shared, of[i], this);
    }
    return out;
  }

  /** A rule that counts against {@code budgets} (a rule of one limit is its own only budget). */
  static Rule of(Shared shared, Budget[] budgets) {
    Budget first = budgets[0];
    boolean ownIsItsBudget = budgets.length == 1 && first.name.equals(shared.name);
    return new Rule(
        shared,
        ownIsItsBudget ? first : Budget.standingFor(shared.name, first),
        ownIsItsBudget,
        budgets,
        null,
        null);
  }

  /** A rule whose budgets are chosen by plan: {@code byPlan}, in the order of its plans. */
  static Rule withPlans(
      Shared shared, io.tollgate.config.PlansConfig plans, Map<String, Budget[]> byPlan) {
    Budget first = byPlan.get(plans.defaultPlan())[0];
    return new Rule(shared, Budget.standingFor(shared.name, first), false, null, plans, byPlan);
  }

  /**
   * The name shown in headers, logs and the 429 body: the rule's name, or {@code name/period} for
   * one of several limits.
   */
  public String name() {
    return name;
  }

  /**
   * This budget's counters, by its {@link #name()}: the same as a reloaded rule of that name
   * counts on. Null when the registry holds no more rules.
   */
  public io.tollgate.diagnostics.metrics.RuleMetrics metrics() {
    io.tollgate.diagnostics.metrics.RuleMetrics m = metrics;
    if (m == null) {
      m = io.tollgate.diagnostics.metrics.TollgateMetrics.of(name);
      metrics = m;
    }
    return m;
  }

  /** The rule of the rules file this budget belongs to (itself for a rule of one limit). */
  public Rule owner() {
    return owner;
  }

  /** The rule's path globs ({@code match.path}); empty when it matches every path. */
  io.tollgate.config.PathGlob[] pathGlobs() {
    return shared.matcher.paths();
  }

  public boolean matches(String method, String normalizedPath) {
    return shared.matcher.matches(method, normalizedPath);
  }

  /**
   * Whether the request matches by the method sent or by the method the application sees after
   * an override ({@code _method}, {@code X-HTTP-Method-Override}): a rule counts both, so that
   * neither a POST rule nor a DELETE rule is escaped by overriding POST with DELETE.
   */
  public boolean matches(String sentMethod, String effectiveMethod, String normalizedPath) {
    return shared.matcher.matches(sentMethod, normalizedPath)
        || (!sentMethod.equals(effectiveMethod)
            && shared.matcher.matches(effectiveMethod, normalizedPath));
  }

  /**
   * Whether this rule matches the request only by the method the application sees after an
   * override, not by the method sent: such a rule was not decided where only the sent method is
   * known (the first servlet entry point), so the framework's handler point decides it.
   */
  public boolean matchesOnlyByOverride(
      String sentMethod, String effectiveMethod, String normalizedPath) {
    return !sentMethod.equals(effectiveMethod)
        && shared.matcher.matchesOnlyByOverride(sentMethod, effectiveMethod, normalizedPath);
  }

  /**
   * Whether the request's host and headers match the rule's {@code match.hosts} and
   * {@code match.headers} (true when it has none), asked once path and method match.
   */
  public boolean matchesHostAndHeaders(HttpExchange exchange) {
    return shared.matcher.matchesHostAndHeaders(exchange);
  }

  /**
   * Whether the rule's {@code skip:} exempts the request: all of its conditions hold, the method
   * ones by the method sent and by the one the application runs ({@code effectiveMethod}), so that
   * an override can move a request out of a rule's skip but never into it.
   */
  public boolean skips(
      HttpExchange exchange, String sentMethod, String effectiveMethod, String normalizedPath) {
    RequestMatcher skip = shared.skip;
    return skip != null
        && skip.matches(sentMethod, normalizedPath)
        && skip.matches(effectiveMethod, normalizedPath)
        && skip.matchesHostAndHeaders(exchange);
  }

  /**
   * Whether this rule may apply to a request on {@code normalizedPath}, by any method: its paths
   * match. By any method because a rule that lists methods may match by an override the
   * application honours ({@code _method}), which only a framework's handler sees; host, headers
   * and key are not looked at. False only when the rule cannot apply at any entry point (a rule on
   * a route template aside: {@link RuleSet#rulesOnPath}).
   */
  public boolean mayApplyOnPath(String normalizedPath) {
    return shared.matcher.matchesPath(normalizedPath);
  }

  /** Whether the rule lists methods, so that a method override may change whether it matches. */
  public boolean matchesByMethod() {
    return !shared.matcher.matchesEveryMethod();
  }

  /**
   * Whether this rule can only be decided where the framework knows the route template (it
   * matches a route, or keys by it).
   */
  public boolean needsRoute() {
    return shared.needsRoute;
  }

  /** {@code routeTemplate} is canonical ({@link RouteTemplates}), or null where none is known. */
  public boolean matchesRoute(String routeTemplate) {
    return shared.route == null || shared.route.equals(routeTemplate);
  }

  /** Whether requests that lack the key count against the rule's {@code key-fallback}. */
  public boolean hasKeyFallback() {
    return shared.keyResolver.hasFallback();
  }

  /** Whether the rule's key has the authenticated user as a part. */
  public boolean keyNeedsPrincipal() {
    return shared.keyResolver.needsPrincipal();
  }

  /**
   * Whether the rule's key needs the authenticated user and this request has none yet: at the
   * first servlet entry point, a security filter that runs later (Spring Security) may still set
   * it, so the decision can wait for the framework's handler.
   */
  public boolean lacksPrincipalYet(HttpExchange exchange) {
    return keyNeedsPrincipal() && exchange.principalName() == null;
  }

  /** Whether the rule's key (or its fallback) may be a form body's field. */
  public boolean keyMayNeedBody() {
    return shared.keyResolver.mayNeedBody();
  }

  /**
   * Whether this request's key is a form body's field that the application has not read yet: the
   * decision waits until it does, so that the agent never reads a body before the application.
   */
  public boolean lacksBodyYet(HttpExchange exchange) {
    return shared.keyResolver.waitsForBody(exchange);
  }

  /** The key this request counts against, or null when the request lacks it (no API key...). */
  public String keyFor(HttpExchange exchange) {
    String primary = shared.keyResolver.resolvePrimary(exchange);
    shared.missingKeys.observe(primary != null);
    return primary != null ? primary : shared.keyResolver.resolveFallback(exchange);
  }

  /** Whether the rule's {@code allow} exempts this request, counted against {@code key}. */
  public boolean isAllowlisted(HttpExchange exchange, String key) {
    return shared.allowlist != Allowlist.NONE && shared.allowlist.allows(exchange, key);
  }

  /** The budgets this request counts against: the rule's limits, or its plan's. */
  public Rule[] budgetsFor(HttpExchange exchange) {
    if (planBudgets == null) {
      return budgets;
    }
    return planBudgets.get(plans.planFor(exchange.header(planHeader)));
  }

  /** All budgets of this rule, of every plan. */
  public List<Rule> allBudgets() {
    return allBudgets;
  }

  /**
   * On the rule of the file: the plan whose budgets {@code budget} is among, or null for a rule
   * without plans (or a budget not its own).
   */
  public String planOf(Rule budget) {
    if (planBudgets == null) {
      return null;
    }
    for (Map.Entry<String, Rule[]> plan : planBudgets.entrySet()) {
      for (Rule b : plan.getValue()) {
        if (b == budget) {
          return plan.getKey();
        }
      }
    }
    return null;
  }

  /** The rule's penalty box, or null. */
  public PenaltyTracker penalty() {
    return shared.penalty;
  }

  /**
   * Whether the rule has a penalty box ({@link #penalty}) or a per-client share ({@link
   * #clientShare}): a decision that needs neither asks this, which names neither class, so that
   * the JIT can inline it where those classes were never loaded (C2 does not inline a method a
   * class of whose signature is not loaded: {@link #penalty} and {@link #clientShare} on a rule
   * without them).
   */
  public boolean hasPenaltyOrClientShare() {
    return shared.penaltyOrShare;
  }

  /** How this rule answers a request it refuses: status, body and content type. */
  public io.tollgate.http.RefusalBody refusalBody() {
    return shared.refusalBody;
  }

  /** {@code cost-header}: the response header that corrects the cost, or null. */
  public String costHeader() {
    return shared.costHeader;
  }

  /**
   * {@code count-when}: the response statuses that stay charged; a request that ends with another
   * is given its charge back. Null when every request counts.
   */
  public io.tollgate.config.CountWhen countWhen() {
    return shared.countWhen;
  }

  /**
   * Whether what an allowed request was charged may change when it ends: a {@code cost-header}
   * correction or a {@code count-when} refund.
   */
  public boolean settlesAtEnd() {
    return shared.costHeader != null || shared.countWhen != null;
  }

  public long costFor(String normalizedPath) {
    return shared.cost.costFor(normalizedPath);
  }

  public LimiterStore store() {
    return store;
  }

  /**
   * The group of this budget and the rule's others (its limits, or its plan's), decided together
   * in one step, all or none; null for a rule of one limit, or budgets decided one by one.
   */
  public io.tollgate.stores.BudgetGroup group() {
    return group;
  }

  int groupIndex() {
    return groupIndex;
  }

  /**
   * What a reload must keep for this budget's counts to be carried over when its parameters change
   * (the rule, its key, algorithm and backend), or null for budgets built without it.
   */
  String carryFingerprint() {
    return fingerprints == null ? null : fingerprints.carriedOverBy();
  }

  /**
   * Whether this rule, in place of {@code before} after a reload, carries over what clients had
   * used of some budget (its parameters changed, not its key, algorithm or backend).
   */
  public boolean carriesCountsOf(Rule before) {
    for (Rule b : allBudgets) {
      String carry = b.carryFingerprint();
      if (carry != null && before.budgetCarryingTo(b.budgetId, carry) != null) {
        return true;
      }
    }
    return false;
  }

  /** This rule's budget of that id whose counts can be carried over to {@code fingerprint}, or null. */
  Rule budgetCarryingTo(String id, String fingerprint) {
    for (Rule b : allBudgets) {
      if (b.budgetId.equals(id) && fingerprint.equals(b.carryFingerprint())) {
        return b;
      }
    }
    return null;
  }

  public QuotaPolicy policy() {
    return policy;
  }

  /** This budget's item of {@code RateLimit-Policy}: {@code "name";q=100;w=60}. */
  public String quotaPolicyItem() {
    String item = quotaPolicyItem;
    if (item == null && policy != null) {
      item = RateLimitHeaders.policyItem(name, policy);
      quotaPolicyItem = item;
    }
    return item;
  }

  /**
   * {@link #quotaPolicyItem()} with its bytes, as the quota headers set it on a response when this
   * budget's is the only item; made at the first response (not when a long rules file is loaded)
   * and kept. Null when the budget has no policy.
   */
  public HeaderText quotaPolicyHeader() {
    HeaderText header = quotaPolicyHeader;
    if (header == null && policy != null) {
      header = HeaderText.of(quotaPolicyItem());
      quotaPolicyHeader = header; // immutable: a race makes the same value twice
    }
    return header;
  }

  /** The start of this budget's {@code RateLimit} value: {@code "name";r=}. */
  public String rateLimitPrefix() {
    return RateLimitHeaders.rateLimitPrefix(name);
  }

  /**
   * This budget's {@code RateLimit} value for {@code remaining} units left and {@code t} seconds:
   * {@code "name";r=remaining;t=t}, the same string again for the same pair while it is recent.
   */
  public String rateLimitValue(long remaining, long t) {
    return rateLimitValues().value(remaining, t);
  }

  /** {@link #rateLimitValue} with its bytes, as the quota headers set it on a response. */
  public HeaderText rateLimitHeader(long remaining, long t) {
    return rateLimitValues().header(remaining, t);
  }

  private RateLimitValueCache rateLimitValues() {
    RateLimitValueCache values = rateLimitValues;
    if (values == null) {
      values = new RateLimitValueCache(RateLimitHeaders.rateLimitPrefix(name));
      rateLimitValues = values;
    }
    return values;
  }

  /** Decides and counts, but never refuses: how operators try a new limit on live traffic. */
  public boolean isShadow() {
    return shared.shadow;
  }

  /** Whether this rule's quota may be told to clients in RateLimit headers. */
  public boolean showsQuotaHeaders() {
    return shared.quotaHeaders;
  }

  /** Whether the RateLimit fields name the key's partition ({@code partition-key: true}). */
  public boolean showsPartitionKey() {
    return shared.partitionKey;
  }

  /** {@code per-client}: what one client may hold of this rule's permits; null when off. */
  public ClientShare clientShare() {
    return shared.clientShare;
  }

  /**
   * The permits of this budget for {@code key} of which a client may hold its {@link #clientShare}
   * in this instance: the limit, or for adaptive-concurrency the limit learnt for the key (its
   * {@code initial} before its first request). On {@code backend: redis}, where every instance
   * draws on one pool while each counts its clients' shares in its own memory, this instance's
   * part of the pool ({@code limit / live instances}, at least 1): so a client spread over the
   * instances holds about its share of the whole pool, not a share in each instance (which, with
   * 50% and two instances, let one client hold the whole pool).
   */
  public long permitsFor(String key) {
    if (store instanceof io.tollgate.stores.redis.FailurePolicyStore) {
      long pool = policy == null ? Long.MAX_VALUE : policy.quota();
      return Math.max(1, pool / ((io.tollgate.stores.redis.FailurePolicyStore) store).instances());
    }
    return permitsHere(key);
  }

  private long permitsHere(String key) {
    if (shared.adaptive && store instanceof io.tollgate.stores.LocalLimiterStore) {
      io.tollgate.stores.LocalLimiterStore<?> local = (io.tollgate.stores.LocalLimiterStore<?>) store;
      Object state = local.peek(key);
      if (state instanceof io.tollgate.limiters.AdaptiveConcurrency.State) {
        return ((io.tollgate.limiters.AdaptiveConcurrency.State) state).limit();
      }
      if (local.algorithm() instanceof io.tollgate.limiters.AdaptiveConcurrency) {
        return ((io.tollgate.limiters.AdaptiveConcurrency) local.algorithm()).initial();
      }
    }
    return policy == null ? Long.MAX_VALUE : policy.quota();
  }

  /** Whether an allowed request holds what it took until it ends (the concurrency algorithm). */
  public boolean releasesAtEnd() {
    return shared.releasesAtEnd;
  }

  /**
   * Whether a request holds what it took even when this rule refused it: an adaptive-concurrency
   * rule in shadow mode, whose would-refuse requests run and count in flight.
   */
  public boolean holdsWhenRefused() {
    return shared.adaptive && shared.shadow;
  }

  /**
   * Whether this rule learns from how each request it admitted ended: its latency and its outcome
   * (adaptive-concurrency).
   */
  public boolean learnsFromLatency() {
    return shared.adaptive;
  }

  public String algorithmName() {
    return shared.algorithmName;
  }

  /** Identifies this budget within its rule, across reloads. */
  String budgetId() {
    return budgetId;
  }

  /**
   * Everything that defines this budget's counting. A reload that keeps the fingerprint keeps the
   * budget's state: a client does not get a fresh budget because an operator edited another rule.
   */
  String fingerprint() {
    return fingerprints == null ? null : fingerprints.ofBudget();
  }

  /** This rule's budget of that id whose counting is defined by {@code fingerprint}, or null. */
  Rule budgetMatching(String id, String fingerprint) {
    for (Rule b : allBudgets) {
      if (b.budgetId.equals(id) && b.fingerprint().equals(fingerprint)) {
        return b;
      }
    }
    return null;
  }
}
