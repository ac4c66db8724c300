package io.tollgate.rules;

import io.tollgate.config.CostConfig;
import io.tollgate.http.HttpExchange;
import io.tollgate.keys.RequestKeyResolver;
import io.tollgate.limiters.QuotaPolicy;
import io.tollgate.stores.LimiterStore;

/** One rule of the rules file, ready to decide: what it matches, how it keys, where it counts. */
public final class Rule {

  private final String name;
  private final RequestMatcher matcher;
  private final RequestKeyResolver keyResolver;
  private final CostConfig cost;
  private final LimiterStore store;
  private final QuotaPolicy policy;
  private final boolean shadow;
  private final boolean quotaHeaders;
  private final String algorithmName;
  private final String fingerprint;
  private final String route;
  private final boolean needsRoute;

  Rule(
      String name,
      RequestMatcher matcher,
      RequestKeyResolver keyResolver,
      CostConfig cost,
      LimiterStore store,
      QuotaPolicy policy,
      boolean shadow,
      boolean quotaHeaders,
      String algorithmName,
      String fingerprint,
      String route) {
    this.name = name;
    this.matcher = matcher;
    this.keyResolver = keyResolver;
    this.cost = cost;
    this.store = store;
    this.policy = policy;
    this.shadow = shadow;
    this.quotaHeaders = quotaHeaders;
    this.algorithmName = algorithmName;
    this.fingerprint = fingerprint;
    this.route = route;
    this.needsRoute = route != null || keyResolver.needsRoute();
  }

  public String name() {
    return name;
  }

  public boolean matches(String method, String normalizedPath) {
    return matcher.matches(method, normalizedPath);
  }

  /**
   * Whether this rule can only be decided where the framework knows the route template (it
   * matches a route, or keys by it).
   */
  public boolean needsRoute() {
    return needsRoute;
  }

  /** {@code routeTemplate} is canonical ({@link RouteTemplates}), or null where none is known. */
  public boolean matchesRoute(String routeTemplate) {
    return route == null || route.equals(routeTemplate);
  }

  /** The key this request counts against, or null when the request lacks it (no API key...). */
  public String keyFor(HttpExchange exchange) {
    return keyResolver.resolve(exchange);
  }

  public long costFor(String normalizedPath) {
    return cost.costFor(normalizedPath);
  }

  public LimiterStore store() {
    return store;
  }

  public QuotaPolicy policy() {
    return policy;
  }

  /** Decides and counts, but never refuses: how operators try a new limit on live traffic. */
  public boolean isShadow() {
    return shadow;
  }

  /** Whether this rule's quota may be told to clients in RateLimit headers. */
  public boolean showsQuotaHeaders() {
    return quotaHeaders;
  }

  /** Whether an allowed request holds what it took until it ends (the concurrency algorithm). */
  public boolean releasesAtEnd() {
    return algorithmName.equals(io.tollgate.limiters.AlgorithmKind.CONCURRENCY.yamlName());
  }

  public String algorithmName() {
    return algorithmName;
  }

  /**
   * Everything that defines this rule's counting. A reload that keeps the fingerprint keeps the
   * rule's state: a client does not get a fresh budget because an operator edited another rule.
   */
  String fingerprint() {
    return fingerprint;
  }
}
