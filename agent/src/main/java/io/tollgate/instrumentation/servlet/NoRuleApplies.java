package io.tollgate.instrumentation.servlet;

import io.tollgate.engine.TollgateGate;
import io.tollgate.rules.RuleSet;

/**
 * A servlet request that no rule in force can apply to, told from its URI alone, which its entry
 * point lets go as if the agent were absent (issue 29 item 2): most of an application's requests
 * are on paths no rule is about (a rule on the login, one on the API), and each of them paid for a
 * decision of nothing, an exchange, the thread's request context, a mark on the request and its
 * end. What such a request still costs: its URI read (Tomcat's bytes, as the rules read it), the
 * rules' paths matched, and now and then a sample for the proxy set-up advisor.
 */
public final class NoRuleApplies {

  private NoRuleApplies() {}

  /**
   * Whether no rule can apply to {@code request}, from the rules its entry point found on the
   * request's path ({@link RuleSet#rulesOnPath}, as {@link TollgateGate#pathOf} gives it from
   * {@link ServletExchange#requestUriOf}; null when it has no URI, which the caller's usual way
   * lets go); the entry point keeps them for the decision when some may. If none can, and the
   * proxy set-up advisor wants a sample, it has it.
   */
  public static boolean on(TollgateGate engine, int[] onPath, Object request, Object response) {
    if (onPath != RuleSet.NO_RULE) {
      return false;
    }
    if (engine.wantsProxySample()) {
      ServletExchange sample = ServletExchange.atLaterEntry(request, response);
      if (sample != null) {
        engine.observeProxySetup(sample);
      }
    }
    return true;
  }
}
