package io.tollgate.engine;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.diagnostics.AgentLog;
import io.tollgate.diagnostics.RateLimitedLog;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.RateLimitHeaders;
import io.tollgate.http.RefusalResponse;
import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.rules.RuleSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine behind the bridge: finds the request's rules, decides, and either adds the quota
 * headers to the application's response or writes the refusal in its place.
 */
public final class TollgateGate implements RequestGate {

  /**
   * A switch for tests of the fail-open guarantee: with it set, every decision throws, and every
   * request must still succeed.
   */
  static final String INJECT_FAILURE_PROPERTY = "tollgate.test.inject-failure";

  private final RulesHolder rules;
  private final RequestDecider decider = new RequestDecider();
  private final RateLimitedLog shadowLog = new RateLimitedLog(1_000);
  private final boolean injectFailure = Boolean.getBoolean(INJECT_FAILURE_PROPERTY);

  public TollgateGate(RulesHolder rules) {
    this.rules = rules;
  }

  @Override
  public Object servletRequestStarted(Object request, Object response) {
    RuleSet ruleSet = rules.current();
    if (ruleSet.isEmpty()) {
      return null;
    }
    if (injectFailure) {
      throw new IllegalStateException(
          "failure injected for testing (-D" + INJECT_FAILURE_PROPERTY + "=true)");
    }
    ServletExchange exchange = ServletExchange.of(request, response);
    if (exchange == null) {
      return null;
    }
    return decideAndRespond(exchange, ruleSet);
  }

  /** Decides; returns {@link Refusal#INSTANCE} when the refusal was written, else null. */
  Object decideAndRespond(HttpExchange exchange, RuleSet ruleSet) {
    RuleVerdicts verdicts = decider.decide(exchange, ruleSet);
    if (verdicts == null) {
      return null;
    }
    RuleVerdicts.Entry shadow = verdicts.wouldRefuse();
    if (shadow != null) {
      shadowLog.log(shadow.rule.name(), () -> "shadow: rule '" + shadow.rule.name()
          + "' would refuse key " + KeyDisplay.of(shadow.key) + " (" + exchange.method() + " "
          + exchange.rawPath() + ")");
    }
    List<String[]> headers = new ArrayList<>(6);
    RateLimitHeaders.addTo(headers, verdicts, ruleSet.headers());
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    if (refusedBy == null) {
      for (String[] header : headers) {
        exchange.setResponseHeader(header[0], header[1]);
      }
      if (AgentLog.isDebug()) {
        AgentLog.debug("allowed " + exchange.method() + " " + exchange.rawPath());
      }
      return null;
    }
    long retryAfter = RefusalResponse.retryAfterSeconds(refusedBy.verdict.retryAfterNanos);
    RefusalResponse.addHeaders(headers, refusedBy.rule.name(), retryAfter);
    exchange.writeResponse(
        429,
        headers,
        RefusalResponse.CONTENT_TYPE,
        RefusalResponse.body(429, refusedBy.rule.name(), retryAfter));
    if (AgentLog.isDebug()) {
      AgentLog.debug("refused " + exchange.method() + " " + exchange.rawPath() + " by rule '"
          + refusedBy.rule.name() + "' (" + refusedBy.rule.algorithmName() + ") key "
          + KeyDisplay.of(refusedBy.key) + "; retry after " + retryAfter + "s");
    }
    return Refusal.INSTANCE;
  }

  @Override
  public void servletRequestEnded(Object scope, Object request, Object response, Throwable thrown) {
    // Nothing is held across a request yet (concurrency limits and cost correction will be).
  }
}
