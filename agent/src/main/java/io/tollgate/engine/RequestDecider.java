package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import io.tollgate.keys.PathNormalizer;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;

/**
 * Applies every matching rule to a request. Each rule counts the request against its own key; the
 * request is refused when any enforcing rule refuses it.
 */
public final class RequestDecider {

  /**
   * Decides the rules taken at {@code point}, adding their verdicts to {@code earlier} (the
   * verdicts of an earlier point of the same request, or null).
   *
   * @return the verdicts so far, or null when no rule applied at all
   */
  public RuleVerdicts decide(
      HttpExchange exchange, RuleSet rules, DecisionPoint point, RuleVerdicts earlier) {
    String method = exchange.method();
    String path = PathNormalizer.normalize(exchange.rawPath());
    String route = point == DecisionPoint.FIRST_ENTRY ? null : exchange.route();
    RuleVerdicts verdicts = earlier;
    for (int i = 0, n = rules.size(); i < n; i++) {
      Rule rule = rules.get(i);
      if (!point.decides(rule)
          || !rule.matches(method, path)
          || (rule.needsRoute() && !rule.matchesRoute(route))) {
        continue;
      }
      String key = rule.keyFor(exchange);
      if (key == null) {
        continue;
      }
      long cost = rule.costFor(path);
      Verdict verdict = new Verdict();
      rule.store().decide(key, cost, verdict);
      if (verdicts == null) {
        verdicts = new RuleVerdicts();
      }
      verdicts.add(rule, key, cost, verdict);
    }
    return verdicts;
  }
}
