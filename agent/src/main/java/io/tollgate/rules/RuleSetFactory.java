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
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.Clock;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.stores.LimiterStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the {@link RuleSet} of a parsed rules file: compiles matchers and keys, and gives each rule
 * its store, keeping the store (and so every client's count) of each rule that did not change.
 */
public final class RuleSetFactory {

  private final StoreProvider stores;

  public RuleSetFactory(Clock clock) {
    this.stores = new StoreProvider(clock);
  }

  /**
   * The rules of {@code config}; rules whose fingerprint is in {@code previous} keep its state.
   *
   * @throws ConfigException naming each rule this version cannot apply, with its line
   */
  public RuleSet build(RulesConfig config, RuleSet previous) throws ConfigException {
    List<ConfigProblem> problems = check(config);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    stores.useBackendOf(config);
    ClientAddressResolver clients = ClientAddresses.resolverFor(config.clientIp());
    ProxySetupAdvisor.checkSettings(clients.trustedProxies(), config.source());
    List<Rule> rules = new ArrayList<>();
    for (RuleConfig ruleConfig : config.rules()) {
      boolean shadow = ruleConfig.effectiveMode(config.mode()) == Mode.SHADOW;
      String fingerprint = fingerprint(ruleConfig, config) + "|" + stores.backendFingerprint(config);
      Rule kept = previous == null ? null : previous.find(ruleConfig.name());
      LimiterStore store;
      RateLimitAlgorithm<?> algorithm = algorithmOf(ruleConfig);
      if (kept != null && kept.fingerprint().equals(fingerprint)) {
        store = kept.store();
      } else {
        store = stores.storeFor(config, ruleConfig, algorithm);
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

  /**
   * The problems that keep {@code config} from being applied, beyond what the parser checks;
   * empty when it can be. Connects to nothing: {@code validate} uses it too.
   */
  public List<ConfigProblem> check(RulesConfig config) {
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
    return problems;
  }

  /** Features the rules file may name that this version cannot yet apply: refused, never ignored. */
  private static void checkSupported(RulesConfig config, List<ConfigProblem> problems) {
    if (config.backend() != Backend.REDIS) {
      return;
    }
    for (RuleConfig rule : config.rules()) {
      if (rule.algorithm() != AlgorithmKind.TOKEN_BUCKET) {
        problems.add(
            new ConfigProblem(
                config.source(),
                rule.lineOf("algorithm"),
                1,
                "rule '" + rule.name() + "': algorithm " + rule.algorithm().yamlName()
                    + " is not available with backend: redis yet; use token-bucket there, or"
                    + " backend: local"));
      }
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
