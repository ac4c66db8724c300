package io.tollgate.rules;

import io.tollgate.config.Backend;
import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.Mode;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.diagnostics.ProxySetupAdvisor;
import io.tollgate.keys.ClientAddressResolver;
import io.tollgate.keys.RequestKeyResolver;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.LocalLimiterStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the {@link RuleSet} of a parsed rules file: compiles matchers and keys, and gives each rule
 * its store, keeping the store (and so every client's count) of each rule that did not change.
 */
public final class RuleSetFactory {

  private final Clock clock;

  public RuleSetFactory(Clock clock) {
    this.clock = clock;
  }

  /**
   * The rules of {@code config}; rules whose fingerprint is in {@code previous} keep its state.
   *
   * @throws ConfigException naming each rule this version cannot apply, with its line
   */
  public RuleSet build(RulesConfig config, RuleSet previous) throws ConfigException {
    List<ConfigProblem> problems = new ArrayList<>();
    checkSupported(config, problems);
    for (RuleConfig ruleConfig : config.rules()) {
      try {
        algorithmOf(ruleConfig);
      } catch (IllegalArgumentException e) {
        problems.add(
            new ConfigProblem(
                config.source(),
                ruleConfig.lineOf("limit"),
                1,
                "rule '" + ruleConfig.name() + "': " + e.getMessage()));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    ClientAddressResolver clients = ClientAddresses.resolverFor(config.clientIp());
    ProxySetupAdvisor.checkSettings(clients.trustedProxies(), config.source());
    List<Rule> rules = new ArrayList<>();
    for (RuleConfig ruleConfig : config.rules()) {
      boolean shadow = ruleConfig.effectiveMode(config.mode()) == Mode.SHADOW;
      String fingerprint = fingerprint(ruleConfig, config);
      Rule kept = previous == null ? null : previous.find(ruleConfig.name());
      LimiterStore store;
      RateLimitAlgorithm<?> algorithm = algorithmOf(ruleConfig);
      if (kept != null && kept.fingerprint().equals(fingerprint)) {
        store = kept.store();
      } else {
        store = new LocalLimiterStore<>(algorithm, clock, ruleConfig.maxKeys());
      }
      rules.add(
          new Rule(
              ruleConfig.name(),
              new RequestMatcher(ruleConfig.paths(), ruleConfig.methods()),
              RequestKeyResolver.of(ruleConfig.key(), clients),
              ruleConfig.cost(),
              store,
              algorithm.policy(),
              shadow,
              ruleConfig.quotaHeadersOrDefault(),
              ruleConfig.algorithm().yamlName(),
              fingerprint,
              RouteTemplates.normalize(ruleConfig.route())));
    }
    return new RuleSet(
        rules, config.source(), config.headers(), clients.trustedProxies().ignoresHeaders());
  }

  private static RateLimitAlgorithm<?> algorithmOf(RuleConfig rule) {
    LimitSpec spec = new LimitSpec(rule.limit(), rule.periodNanos(), rule.burst());
    return Algorithms.create(rule.algorithm(), spec);
  }

  /** Features the rules file may name that this version cannot yet apply: refused, never ignored. */
  private static void checkSupported(RulesConfig config, List<ConfigProblem> problems) {
    if (config.backend() == Backend.REDIS) {
      problems.add(
          new ConfigProblem(
              config.source(),
              config.lineOf("backend"),
              1,
              "backend: redis is not available in this version of Tollgate yet; use backend: local"));
    }
  }

  private static String fingerprint(RuleConfig rule, RulesConfig config) {
    return String.join(
        "|",
        rule.name(),
        rule.algorithm().yamlName(),
        Long.toString(rule.limit()),
        Long.toString(rule.periodNanos()),
        Long.toString(rule.burst()),
        Long.toString(rule.maxKeys()),
        rule.key().toString(),
        String.valueOf(config.clientIp().trustedProxyHops()),
        config.clientIp().trustedProxyCidrs().toString(),
        String.valueOf(config.clientIp().ipv6Prefix()));
  }
}
