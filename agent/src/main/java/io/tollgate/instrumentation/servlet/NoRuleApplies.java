package io.tollgate.instrumentation.servlet;

import io.tollgate.engine.TollgateGate;

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
   * Whether no rule can apply to {@code request} on {@code uri} ({@link
   * ServletExchange#requestUriOf}; null when it is no HTTP servlet request, which the caller's
   * usual way lets go); if so, and the proxy set-up advisor wants a sample, it has it.
   */
  public static boolean to(TollgateGate engine, String uri, Object request, Object response) {
    if (uri == null || !engine.appliesToNone(uri)) {
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
