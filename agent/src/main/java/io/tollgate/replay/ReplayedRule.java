package io.tollgate.replay;

import io.tollgate.config.CountWhen;
import io.tollgate.config.Durations;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.config.Mode;
import io.tollgate.config.RuleConfig;
import io.tollgate.limiters.AlgorithmKind;
import io.tollgate.rules.Rule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One rule of the rules file as the replay sees it: the engine's rule, what the file says of it,
 * its budgets (limits) with their periods, and whether a log can replay it at all.
 */
final class ReplayedRule {

  /** Whether and how a log can replay a rule. */
  enum Replayability {
    /** Decided by the engine as the agent would decide it. */
    REPLAYED,
    /**
     * Matches or keys by a route template, which only the application's framework knows: not
     * decided; the requests its paths and methods match are counted.
     */
    NEEDS_ROUTE,
    /**
     * A {@code concurrency} rule: a log has no durations, so each request is replayed as
     * instantaneous (its permit given back at once) and the rule refuses no one unless its limit
     * is below the cost of one request.
     */
    INSTANTANEOUS
  }

  /** One limit of the rule: its engine budget and the period its peaks are counted over. */
  static final class Budget {
    final Rule rule;
    final String label;
    final long limit;
    final long periodNanos;

    Budget(Rule rule, String label, long limit, long periodNanos) {
      this.rule = rule;
      this.label = label;
      this.limit = limit;
      this.periodNanos = periodNanos;
    }
  }

  final int index;
  final Rule rule;
  final RuleConfig config;
  final boolean shadow;
  final Replayability replayability;
  final List<Budget> budgets;

  ReplayedRule(int index, Rule rule, RuleConfig config, Mode fileMode) {
    this.index = index;
    this.rule = rule;
    this.config = config;
    this.shadow = config.effectiveMode(fileMode) == Mode.SHADOW;
    this.replayability =
        rule.needsRoute()
            ? Replayability.NEEDS_ROUTE
            : config.algorithm() == AlgorithmKind.CONCURRENCY
                    || config.algorithm() == AlgorithmKind.ADAPTIVE_CONCURRENCY
                ? Replayability.INSTANTANEOUS
                : Replayability.REPLAYED;
    this.budgets = Collections.unmodifiableList(budgetsOf(rule, config));
  }

  /** This rule's budget's place in {@link #budgets}, or -1. */
  int budgetIndex(Rule budget) {
    for (int i = 0; i < budgets.size(); i++) {
      if (budgets.get(i).rule == budget) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether a request the rule matches may go undecided: the rule needs a route, or its key may
   * be missing from a request (anything but {@code ip} and {@code global}), or it has an
   * allowlist. For the others, a matching request is always decided.
   */
  boolean mayMatchUndecided() {
    if (replayability == Replayability.NEEDS_ROUTE || !config.allow().isEmpty()) {
      return true;
    }
    for (String part : config.key()) {
      if (!part.equals("ip") && !part.equals("global")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a request that was logged with {@code status} counts against the rule's limits, as
   * the engine decides it when the request ends: every one, or with {@code count-when} only those
   * whose status it lists (a request logged with no status counts, as the engine keeps the charge
   * of a response whose status it could not read).
   */
  boolean counts(int status) {
    CountWhen countWhen = config.countWhen();
    return countWhen == null || countWhen.counts(status);
  }

  /** What the rule counts when it does not count every request: {@code counting 401 responses}. */
  String counting() {
    CountWhen countWhen = config.countWhen();
    if (countWhen == null) {
      return null;
    }
    List<String> items = new ArrayList<>();
    for (String item : countWhen.items()) {
      items.add(item.equals(CountWhen.FAILURE) ? "failed (4xx, 5xx)" : item);
    }
    return "counting " + String.join(", ", items) + " responses";
  }

  /**
   * Why a log may leave every request without this rule's key: one reason per key part that a
   * log may lack, or null when each part is one every logged request has.
   */
  String whyKeyless() {
    List<String> reasons = new ArrayList<>();
    for (String part : config.key()) {
      int colon = part.indexOf(':');
      String kind = (colon < 0 ? part : part.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
      String name = colon < 0 ? "" : part.substring(colon + 1).trim();
      switch (kind) {
        case "form":
          reasons.add("an access log records no request bodies, so no form field " + name);
          break;
        case "header":
          reasons.add("the log recorded no " + name + " header");
          break;
        case "cookie":
          reasons.add("the log recorded no Cookie header with " + name);
          break;
        case "principal":
          reasons.add("the log recorded no user");
          break;
        case "param":
        case "query":
          reasons.add("no logged query string had " + name);
          break;
        default:
          break;
      }
    }
    return reasons.isEmpty() ? null : String.join("; ", reasons);
  }

  String name() {
    return config.name();
  }

  String algorithm() {
    return config.calendar() != null
        ? "calendar " + config.calendar().name().toLowerCase(java.util.Locale.ROOT)
        : config.algorithm().yamlName();
  }

  String key() {
    String key = String.join(", ", config.key());
    List<String> fallback = config.keyFallback();
    return fallback == null || fallback.isEmpty() ? key : key + " (fallback " + String.join(", ", fallback) + ")";
  }

  /** The limits as the file gives them: {@code 5/1m}, {@code 20/1s + 10000/1h}, or per plan. */
  String limits() {
    StringBuilder out = new StringBuilder();
    for (Budget budget : budgets) {
      if (out.length() > 0) {
        out.append(", ");
      }
      out.append(budget.label);
    }
    return out.toString();
  }

  /**
   * The rule's budgets in the engine's order ({@link Rule#allBudgets()}): its limits, or each
   * plan's limits in the order of the file.
   */
  private static List<Budget> budgetsOf(Rule rule, RuleConfig config) {
    List<Rule> engine = rule.allBudgets();
    List<Budget> out = new ArrayList<>(engine.size());
    if (config.plans() == null) {
      List<LimitSpec> limits = config.limits();
      for (int i = 0; i < limits.size() && i < engine.size(); i++) {
        out.add(budget(engine.get(i), null, limits.get(i), config));
      }
    } else {
      int i = 0;
      for (Map.Entry<String, List<LimitSpec>> plan : config.plans().limits().entrySet()) {
        for (LimitSpec limit : plan.getValue()) {
          if (i < engine.size()) {
            out.add(budget(engine.get(i++), plan.getKey(), limit, config));
          }
        }
      }
    }
    return out;
  }

  private static Budget budget(Rule engine, String plan, LimitSpec limit, RuleConfig config) {
    long period = limit.periodNanos();
    String per =
        config.calendar() != null
            ? config.calendar().name().toLowerCase(java.util.Locale.ROOT)
            : Durations.format(period);
    String label =
        (plan == null ? "" : plan + ": ") + limit.limit() + "/" + per
            + (limit.burst() != limit.limit() && config.algorithm() != AlgorithmKind.CONCURRENCY
                ? " burst " + limit.burst()
                : "");
    return new Budget(engine, label, limit.limit(), period);
  }
}
