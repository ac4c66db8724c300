package io.tollgate.outbound;

import io.tollgate.config.Backend;
import io.tollgate.config.ConfigException;
import io.tollgate.config.ConfigProblem;
import io.tollgate.config.Durations;
import io.tollgate.config.Mode;
import io.tollgate.config.OutboundRuleConfig;
import io.tollgate.config.RuleConfig;
import io.tollgate.config.RulesConfig;
import io.tollgate.logging.AgentLog;
import io.tollgate.limiters.Algorithms;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.RateLimitAlgorithm;
import io.tollgate.rules.RuleSetFactory;
import io.tollgate.stores.LimiterStore;
import io.tollgate.stores.redis.RedisAlgorithmStore;
import io.tollgate.stores.redis.RedisPartnerHolds;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the {@link OutboundGate} of a rules file's {@code outbound:} list, on the stores the
 * inbound rules use ({@link RuleSetFactory#outboundStore}): each budget's store (and so its counts)
 * is kept across a reload that does not change how it counts, as inbound rules' are, and so are
 * the partner's waits a rule has learnt while its name, key and cap stay. On Redis the partner's
 * waits are shared by every instance ({@link RedisPartnerHolds}).
 */
public final class OutboundRules {

  /** Outbound rules' stores are named apart from inbound rules', on Redis too. */
  static final String STORE_PREFIX = "outbound.";

  private OutboundRules() {}

  /**
   * The problems that keep {@code config}'s outbound rules from being applied, beyond what the
   * parser checks (limits an algorithm refuses, numbers past the Redis scripts' range).
   */
  public static void check(RulesConfig config) throws ConfigException {
    List<ConfigProblem> problems = new ArrayList<>();
    for (OutboundRuleConfig rule : config.outbound()) {
      for (LimitSpec limit : rule.limits()) {
        try {
          RateLimitAlgorithm<?> algorithm = algorithmOf(rule, limit);
          if (rule.effectiveBackend(config.backend()) == Backend.REDIS) {
            RedisAlgorithmStore.checkFitsLua(STORE_PREFIX + rule.name(), algorithm);
          }
        } catch (IllegalArgumentException e) {
          problems.add(new ConfigProblem(config.source(), rule.lineOf("limit"), 1,
              "outbound rule '" + rule.name() + "': " + e.getMessage()));
          break;
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }

  /**
   * The outbound rules of {@code config}, built between {@code factory.build} and {@code
   * factory.applied} (on the backend the file names); {@code previous}'s stores and learnt waits
   * are kept where they count the same.
   */
  public static OutboundGate build(
      RulesConfig config, OutboundGate previous, RuleSetFactory factory) {
    if (config.outbound().isEmpty()) {
      return OutboundGate.EMPTY;
    }
    List<OutboundRule> rules = new ArrayList<>();
    for (OutboundRuleConfig rule : config.outbound()) {
      OutboundRule kept = previous == null ? null : previous.find(rule.name());
      boolean local = rule.effectiveBackend(config.backend()) != Backend.REDIS;
      int n = rule.limits().size();
      LimiterStore[] stores = new LimiterStore[n];
      String[] fingerprints = new String[n];
      for (int i = 0; i < n; i++) {
        LimitSpec limit = rule.limits().get(i);
        RuleConfig asRule = asRule(rule, limit);
        String period = n == 1 ? "" : Durations.format(limit.periodNanos());
        String budgetName = STORE_PREFIX + rule.name() + (n == 1 ? "" : "/" + period);
        fingerprints[i] = String.join("|", rule.key(), rule.algorithm().yamlName(),
            Long.toString(limit.limit()), Long.toString(limit.periodNanos()),
            Long.toString(limit.burst()), Long.toString(rule.maxDelayNanos()),
            Long.toString(rule.maxKeys()), Integer.toString(i) + "/" + n,
            factory.outboundBackendFingerprint(config, asRule, local));
        stores[i] = kept != null && i < kept.budgets.length
                && kept.budgetFingerprints[i].equals(fingerprints[i])
            ? kept.budgets[i]
            : factory.outboundStore(config, asRule, budgetName, period,
                algorithmOf(rule, limit), local);
      }
      PartnerHolds holds =
          kept != null && kept.config.key().equals(rule.key())
                  && kept.config.maxHonouredWaitNanos() == rule.maxHonouredWaitNanos()
              ? kept.holds
              : new PartnerHolds(rule.name(), rule.maxHonouredWaitNanos(), rule.maxKeys());
      // On Redis the partner's waits are shared, and read where the first budget is decided.
      RedisPartnerHolds shared =
          factory.outboundPartnerHolds(config, STORE_PREFIX + rule.name(), local);
      if (shared != null) {
        shared.readBy(stores[0]);
      }
      holds.shareOn(shared);
      boolean shadow = rule.effectiveMode(config.mode()) == Mode.SHADOW;
      rules.add(new OutboundRule(rule, shadow, stores, fingerprints, holds));
    }
    return new OutboundGate(rules);
  }

  /** Says in the log which outbound rules a reload added, changed or removed. */
  public static void logChanges(OutboundGate previous, OutboundGate next) {
    for (String name : next.names()) {
      String plain = name.endsWith(" (shadow)") ? name.substring(0, name.length() - 9) : name;
      OutboundRule before = previous.find(plain);
      OutboundRule after = next.find(plain);
      if (before == null) {
        AgentLog.info("outbound rule '" + plain + "' added");
      } else if (!before.config.equals(after.config)) {
        boolean keptCounts = before.budgets.length > 0 && after.budgets.length > 0
            && before.budgets[0] == after.budgets[0];
        AgentLog.info("outbound rule '" + plain + "' changed; "
            + (keptCounts ? "its counts are kept" : "its counts start afresh"));
      }
    }
    for (String name : previous.names()) {
      String plain = name.endsWith(" (shadow)") ? name.substring(0, name.length() - 9) : name;
      if (next.find(plain) == null) {
        AgentLog.info("outbound rule '" + plain + "' removed");
      }
    }
  }

  /** The rule as the stores know rules: its store's name, on-failure and max-keys. */
  private static RuleConfig asRule(OutboundRuleConfig rule, LimitSpec limit) {
    return RuleConfig.builder(STORE_PREFIX + rule.name())
        .algorithm(rule.algorithm())
        .limit(limit.limit())
        .periodNanos(limit.periodNanos())
        .burst(limit.burst())
        .maxDelayNanos(rule.maxDelayNanos())
        .onFailure(rule.onFailure())
        .maxKeys(rule.maxKeys())
        .build();
  }

  private static RateLimitAlgorithm<?> algorithmOf(OutboundRuleConfig rule, LimitSpec limit) {
    return Algorithms.create(
        rule.algorithm(),
        limit,
        Algorithms.Options.DEFAULTS.withMaxDelayNanos(rule.maxDelayNanos()));
  }
}
