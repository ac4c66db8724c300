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

  /** The verdicts of the matching rules, or null when no rule applies to this request. */
  public RuleVerdicts decide(HttpExchange exchange, RuleSet rules) {
    String method = exchange.method();
    String path = PathNormalizer.normalize(exchange.rawPath());
    RuleVerdicts verdicts = null;
    for (int i = 0, n = rules.size(); i < n; i++) {
      Rule rule = rules.get(i);
      if (!rule.matches(method, path)) {
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
