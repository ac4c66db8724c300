package io.tollgate.engine;

import io.tollgate.bootstrap.Refusal;
import io.tollgate.bootstrap.RequestGate;
import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.diagnostics.AgentLog;
import io.tollgate.diagnostics.ProxySetupAdvisor;
import io.tollgate.diagnostics.RateLimitedLog;
import io.tollgate.diagnostics.RouteRulesAdvisor;
import io.tollgate.diagnostics.metrics.TollgateMetrics;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.RateLimitHeaders;
import io.tollgate.http.RefusalResponse;
import io.tollgate.instrumentation.jaxrs.GrizzlyRequests;
import io.tollgate.instrumentation.jaxrs.JerseyApi;
import io.tollgate.instrumentation.jaxrs.JerseyExchange;
import io.tollgate.instrumentation.jaxrs.JerseyResponseHeaders;
import io.tollgate.instrumentation.servlet.ServletExchange;
import io.tollgate.instrumentation.spring.SpringRoutes;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The engine behind the bridge: finds the request's rules, decides, and either adds the quota
 * headers to the application's response or answers with the refusal in its place.
 *
 * <p>A request can pass several entry points: a servlet filter, then Spring's handler adapter or
 * Jersey's dispatcher. Each rule is decided at one of them ({@link DecisionPoint}): rules on paths
 * at the first servlet entry, rules on route templates where the framework knows the route, and
 * every rule at Jersey's dispatcher when no servlet container stands in front of it.
 */
public final class TollgateGate implements RequestGate {

  /**
   * A switch for tests of the fail-open guarantee: with it set, every decision throws, and every
   * request must still succeed.
   */
  static final String INJECT_FAILURE_PROPERTY = "tollgate.test.inject-failure";

  static final String ROUTE_DECIDED_ATTRIBUTE = "io.tollgate.route-decided";

  /** The servlet request this thread is serving, from its first entry point until it returns. */
  private static final ThreadLocal<ServletPhase> SERVLET_PHASE = new ThreadLocal<>();
  /** The client address a server without the servlet API noted for this thread. */
  private static final ThreadLocal<String> SERVER_REMOTE_ADDRESS = new ThreadLocal<>();
  /** What a request on such a server holds until it ends (concurrency permits). */
  private static final ThreadLocal<RuleVerdicts> SERVER_HELD = new ThreadLocal<>();

  private final RulesHolder rules;
  private final RequestDecider decider = new RequestDecider();
  private final RateLimitedLog shadowLog = new RateLimitedLog(1_000);
  private final ProxySetupAdvisor proxyAdvisor = new ProxySetupAdvisor();
  private final RouteRulesAdvisor routeRulesAdvisor = new RouteRulesAdvisor();
  /** Made once: the end of every servlet request hands it to {@link #routeRulesAdvisor}. */
  private final Supplier<List<String>> namesOfRouteRules = this::routeRuleNames;
  private final boolean injectFailure = Boolean.getBoolean(INJECT_FAILURE_PROPERTY);
  /**
   * Whether a framework's handler (Spring MVC's, or Jersey's behind a servlet container) has run
   * in this JVM: then rules keyed by the user can wait for it, after the security filters.
   */
  private volatile boolean handlerPointSeen;

  public TollgateGate(RulesHolder rules) {
    this.rules = rules;
  }

  /**
   * A servlet request from its first entry point to its end: the verdicts of every decision point
   * it passed, so that later points report all of them and the end gives back what they hold.
   */
  static final class ServletPhase {
    final ServletExchange exchange;
    RuleVerdicts verdicts;
    /**
     * Rules keyed by the user, which the request did not have at its first entry point: decided
     * at the first later entry point that has one, at the latest at the framework's handler.
     * Null when none.
     */
    List<Rule> waitingForPrincipal;

    ServletPhase(ServletExchange exchange, RuleVerdicts verdicts) {
      this.exchange = exchange;
      this.verdicts = verdicts;
    }
  }

  @Override
  public Object servletRequestStarted(Object request, Object response) {
    RuleSet ruleSet = rules.current();
    if (ruleSet.isEmpty()) {
      return null;
    }
    failIfInjected();
    ServletPhase current = SERVLET_PHASE.get();
    if (current != null) {
      // This thread is inside the first entry point of a request, so this is part of that
      // request: a later filter or the servlet (often with the request wrapped, by Spring
      // Security or the application), a forward or include, or a request made in-process while
      // serving it. Known without asking the container anything.
      return current.waitingForPrincipal == null
          ? null
          : decideOnceTheUserIsKnown(current, request, response, ruleSet);
    }
    ServletExchange exchange =
        ServletExchange.firstTimeMarked(request, response, TollgateBridge.DECIDED_ATTRIBUTE);
    if (exchange == null) {
      return null;
    }
    if (ruleSet.trustsNoProxy() && proxyAdvisor.wantsSample()) {
      proxyAdvisor.observe(
          exchange.remoteAddress(),
          exchange.header("X-Forwarded-For") != null || exchange.header("Forwarded") != null);
    }
    List<Rule> waiting = ruleSet.hasPrincipalRules() ? new ArrayList<>(1) : null;
    RuleVerdicts verdicts = decide(exchange, ruleSet, DecisionPoint.FIRST_ENTRY, null, waiting);
    if (verdicts != null && refuseOrPass(exchange, verdicts, ruleSet) != null) {
      return Refusal.WRITTEN;
    }
    ServletPhase phase = new ServletPhase(exchange, verdicts);
    if (waiting != null && !waiting.isEmpty()) {
      phase.waitingForPrincipal = waiting;
    }
    SERVLET_PHASE.set(phase);
    return phase;
  }

  /**
   * A later entry point of a request whose rules keyed by the user waited for it: decides them
   * here if the request (as this point sees it) now has a user. They may refuse it here.
   */
  private Object decideOnceTheUserIsKnown(
      ServletPhase phase, Object request, Object response, RuleSet ruleSet) {
    ServletExchange exchange = ServletExchange.atLaterEntry(request, response);
    if (exchange == null || exchange.principalName() == null) {
      return null;
    }
    List<Rule> waiting = phase.waitingForPrincipal;
    RuleVerdicts earlier = phase.verdicts;
    int before = earlier == null ? 0 : earlier.size();
    RuleVerdicts verdicts = decide(exchange, ruleSet, DecisionPoint.LATER_ENTRY, earlier, waiting);
    if (waiting.isEmpty()) {
      phase.waitingForPrincipal = null;
    }
    if (verdicts == null || verdicts.size() == before) {
      return null;
    }
    phase.verdicts = verdicts;
    return refuseOrPass(exchange, verdicts, ruleSet);
  }

  /**
   * Acts on a servlet request's verdicts: writes the refusal in place of the application's answer
   * (and returns {@link Refusal#WRITTEN}), or adds the quota headers and lets it pass (null),
   * after any pacing delay.
   */
  private Object refuseOrPass(HttpExchange exchange, RuleVerdicts verdicts, RuleSet ruleSet) {
    if (verdicts.refused()) {
      List<String[]> headers = headersFor(verdicts, ruleSet);
      verdicts.releaseHeld();
      writeRefusal(exchange, verdicts, headers);
      return Refusal.WRITTEN;
    }
    setHeaders(exchange, verdicts, ruleSet);
    logAllowed(exchange, verdicts);
    RequestPacing.hold(verdicts.takeDelayNanos());
    return null;
  }

  @Override
  public void servletRequestEnded(Object scope, Throwable thrown) {
    if (scope instanceof ServletPhase) {
      // set, not remove: the thread's entry stays, so the next request does not make a new one
      SERVLET_PHASE.set(null);
      routeRulesAdvisor.requestEnded(handlerPointSeen, namesOfRouteRules);
      RuleVerdicts verdicts = ((ServletPhase) scope).verdicts;
      if (verdicts != null && verdicts.hasWorkAtEnd()) {
        ServletExchange exchange = ((ServletPhase) scope).exchange;
        exchange.whenComplete(() -> verdicts.requestEnded(exchange::responseHeader));
      }
    }
  }

  /** A framework's handler runs behind a servlet entry point: written once, read on each request. */
  private void noteHandlerPoint() {
    if (!handlerPointSeen) {
      handlerPointSeen = true;
    }
  }

  private List<String> routeRuleNames() {
    List<String> names = new ArrayList<>();
    for (Rule rule : rules.current().rules()) {
      if (rule.needsRoute()) {
        names.add(rule.name());
      }
    }
    return names;
  }

  @Override
  public Object springHandlerStarted(Object request, Object response) {
    noteHandlerPoint();
    RuleSet ruleSet = rules.current();
    ServletPhase phase = SERVLET_PHASE.get();
    List<Rule> waiting = phase == null ? null : phase.waitingForPrincipal;
    // A method override the application honours (HiddenHttpMethodFilter's _method) is seen
    // only here: rules that match by the overridden method are decided here.
    if (!ruleSet.hasRouteRules()
        && waiting == null
        && !(phase != null && ruleSet.hasMethodRules() && methodOverridden(request, phase))) {
      return null;
    }
    failIfInjected();
    ServletExchange exchange =
        ServletExchange.firstTimeMarked(request, response, ROUTE_DECIDED_ATTRIBUTE);
    if (exchange == null) {
      return null;
    }
    exchange.setRoute(SpringRoutes.routeOf(exchange));
    RuleVerdicts earlier = phase == null ? null : phase.verdicts;
    int before = earlier == null ? 0 : earlier.size();
    if (phase != null) {
      phase.waitingForPrincipal = null; // decided here, once
    }
    String sentMethod = phase == null ? null : phase.exchange.method();
    RuleVerdicts verdicts =
        decide(exchange, sentMethod, ruleSet, DecisionPoint.ROUTE, earlier, waiting);
    if (verdicts == null || verdicts.size() == before) {
      return null;
    }
    if (phase != null) {
      phase.verdicts = verdicts;
    }
    return refuseOrPass(exchange, verdicts, ruleSet);
  }

  /** Whether the application runs {@code request} by another method than its first entry saw. */
  private static boolean methodOverridden(Object request, ServletPhase phase) {
    ServletExchange asSeen = ServletExchange.atLaterEntry(request, null);
    return asSeen != null && !asSeen.method().equals(phase.exchange.method());
  }

  @Override
  public Object jaxrsResourceStarted(Object processingContext) throws ReflectiveOperationException {
    RuleSet ruleSet = rules.current();
    if (ruleSet.isEmpty()) {
      return null;
    }
    failIfInjected();
    ServletPhase servlet = SERVLET_PHASE.get();
    DecisionPoint point = servlet == null ? DecisionPoint.ONLY_ENTRY : DecisionPoint.ROUTE;
    if (point == DecisionPoint.ROUTE) {
      noteHandlerPoint();
    }
    List<Rule> waiting = servlet == null ? null : servlet.waitingForPrincipal;
    // Jersey's HttpMethodOverrideFilter (X-HTTP-Method-Override) changes the method before
    // this point: rules that match by the overridden method are decided here.
    if (point == DecisionPoint.ROUTE
        && !ruleSet.hasRouteRules()
        && waiting == null
        && !ruleSet.hasMethodRules()) {
      return null;
    }
    JerseyApi jersey = JerseyApi.of(processingContext);
    Object containerRequest = jersey.calls.request(processingContext);
    JerseyExchange exchange =
        new JerseyExchange(
            jersey.calls,
            containerRequest,
            servlet != null ? servlet.exchange.remoteAddress() : SERVER_REMOTE_ADDRESS.get());
    if (point == DecisionPoint.ROUTE
        && !ruleSet.hasRouteRules()
        && waiting == null
        && exchange.method().equals(servlet.exchange.method())) {
      return null; // only the method override brought it here, and there is none
    }
    if (exchange.property(ROUTE_DECIDED_ATTRIBUTE) != null) {
      return null;
    }
    exchange.setProperty(ROUTE_DECIDED_ATTRIBUTE, Boolean.TRUE);
    RuleVerdicts earlier = servlet == null ? null : servlet.verdicts;
    int before = earlier == null ? 0 : earlier.size();
    if (servlet != null) {
      servlet.waitingForPrincipal = null; // decided here, once
    }
    RuleVerdicts verdicts =
        decide(
            exchange, servlet == null ? null : servlet.exchange.method(),
            ruleSet, point, earlier, waiting);
    if (verdicts == null || verdicts.size() == before) {
      return null;
    }
    if (servlet != null) {
      servlet.verdicts = verdicts;
    } else if (verdicts.holdsAnything()) {
      SERVER_HELD.set(verdicts);
    }
    List<String[]> headers = headersFor(verdicts, ruleSet);
    if (verdicts.refused()) {
      verdicts.releaseHeld();
      SERVER_HELD.remove();
      RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
      long retryAfter = RefusalResponse.retryAfterSeconds(refusedBy.verdict.retryAfterNanos);
      RefusalResponse.addHeaders(headers, refusedBy.rule.name(), retryAfter);
      logRefusal(exchange, refusedBy, retryAfter);
      String[] flat = flatten(headers);
      int status = statusOf(refusedBy);
      byte[] body = RefusalResponse.body(status, refusedBy.rule.name(), retryAfter);
      return new Refusal(
          status,
          flat,
          RefusalResponse.CONTENT_TYPE,
          body,
          jersey.refusals().containerResponse(
              containerRequest, status, flat, RefusalResponse.CONTENT_TYPE, body));
    }
    logAllowed(exchange, verdicts);
    RequestPacing.hold(verdicts.takeDelayNanos());
    if (servlet != null) {
      setHeaders(servlet.exchange, headers);
      return null;
    }
    return headers.isEmpty() ? null : new JerseyResponseHeaders(jersey.calls, flatten(headers));
  }

  @Override
  public void jaxrsResourceEnded(Object decision, Object response) {
    if (decision instanceof JerseyResponseHeaders) {
      ((JerseyResponseHeaders) decision).setOn(response);
    }
  }

  @Override
  public void serverRequestStarted(Object serverRequest) {
    SERVER_REMOTE_ADDRESS.set(GrizzlyRequests.remoteAddress(serverRequest));
  }

  @Override
  public void serverRequestEnded() {
    SERVER_REMOTE_ADDRESS.remove();
    RuleVerdicts held = SERVER_HELD.get();
    if (held != null) {
      // Jersey on Grizzly: asynchronous resources give back when the container call returns.
      SERVER_HELD.remove();
      held.releaseHeld();
    }
  }

  /** Decides at one entry point and counts this decision's verdicts in the rule metrics. */
  private RuleVerdicts decide(
      HttpExchange exchange,
      RuleSet ruleSet,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting) {
    return decide(exchange, null, ruleSet, point, earlier, waiting);
  }

  /** As above, at a handler whose method may be overridden from {@code sentMethod}. */
  private RuleVerdicts decide(
      HttpExchange exchange,
      String sentMethod,
      RuleSet ruleSet,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting) {
    int before = earlier == null ? 0 : earlier.size();
    long start = System.nanoTime();
    RuleVerdicts verdicts =
        decider.decide(exchange, sentMethod, ruleSet, point, earlier, waiting, handlerPointSeen);
    TollgateMetrics.record(verdicts, before, System.nanoTime() - start);
    return verdicts;
  }

  private void failIfInjected() {
    if (injectFailure) {
      throw new IllegalStateException(
          "failure injected for testing (-D" + INJECT_FAILURE_PROPERTY + "=true)");
    }
  }

  /** The quota headers as a list, for a refusal (which adds its own) or a deferred response. */
  private List<String[]> headersFor(RuleVerdicts verdicts, RuleSet ruleSet) {
    logShadow(verdicts);
    List<String[]> headers = new ArrayList<>(6);
    RateLimitHeaders.addTo(headers, verdicts, ruleSet.headers());
    return headers;
  }

  /** The quota headers of an allowed request, set on its response directly. */
  private void setHeaders(HttpExchange exchange, RuleVerdicts verdicts, RuleSet ruleSet) {
    logShadow(verdicts);
    RateLimitHeaders.addTo(exchange::setResponseHeader, verdicts, ruleSet.headers());
  }

  private void logShadow(RuleVerdicts verdicts) {
    RuleVerdicts.Entry shadow = verdicts.wouldRefuse();
    if (shadow != null) {
      shadowLog.log(shadow.rule.name(), () -> "shadow: rule '" + shadow.rule.name()
          + "' would refuse key " + KeyDisplay.of(shadow.key));
    }
  }

  private static void setHeaders(HttpExchange exchange, List<String[]> headers) {
    for (String[] header : headers) {
      exchange.setResponseHeader(header[0], header[1]);
    }
  }

  private static void writeRefusal(
      HttpExchange exchange, RuleVerdicts verdicts, List<String[]> headers) {
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    long retryAfter = RefusalResponse.retryAfterSeconds(refusedBy.verdict.retryAfterNanos);
    int status = statusOf(refusedBy);
    RefusalResponse.addHeaders(headers, refusedBy.rule.name(), retryAfter);
    exchange.writeResponse(
        status,
        headers,
        RefusalResponse.CONTENT_TYPE,
        RefusalResponse.body(status, refusedBy.rule.name(), retryAfter));
    logRefusal(exchange, refusedBy, retryAfter);
  }

  /** With {@code debug=true}: every allowed decision, with each rule's key and what is left. */
  private static void logAllowed(HttpExchange exchange, RuleVerdicts verdicts) {
    if (!AgentLog.isDebug()) {
      return;
    }
    StringBuilder line = new StringBuilder("allowed ")
        .append(exchange.method()).append(' ').append(exchange.rawPath());
    for (RuleVerdicts.Entry entry : verdicts.entries()) {
      line.append("; rule '").append(entry.rule.name()).append("' (")
          .append(entry.rule.algorithmName()).append(") key ").append(KeyDisplay.of(entry.key))
          .append(entry.verdict.allowed ? " remaining " + entry.verdict.remaining : " would refuse");
    }
    AgentLog.debug(line.toString());
  }

  private static void logRefusal(
      HttpExchange exchange, RuleVerdicts.Entry refusedBy, long retryAfter) {
    if (AgentLog.isDebug()) {
      AgentLog.debug("refused " + exchange.method() + " " + exchange.rawPath() + " by rule '"
          + refusedBy.rule.name() + "' (" + refusedBy.rule.algorithmName() + ") key "
          + KeyDisplay.of(refusedBy.key) + "; retry after " + retryAfter + "s");
      return;
    }
    // Without debug: the refusal log, a few lines a minute per rule and a summary of the rest.
    io.tollgate.diagnostics.RefusalLog refusals = io.tollgate.diagnostics.RefusalLog.shared();
    if (refusals.admit(refusedBy.rule.name())) {
      refusals.write(refusedBy.rule.name(), exchange.method(), exchange.rawPath(),
          KeyDisplay.of(refusedBy.key), retryAfter,
          refusedBy.verdict.backendUnavailable ? 503 : 429);
    }
  }

  /** 429 over the limit; 503 when the shared store is down and the rule says deny. */
  private static int statusOf(RuleVerdicts.Entry refusedBy) {
    return refusedBy.verdict.backendUnavailable ? 503 : 429;
  }

  private static String[] flatten(List<String[]> headers) {
    String[] flat = new String[headers.size() * 2];
    for (int i = 0; i < headers.size(); i++) {
      flat[2 * i] = headers.get(i)[0];
      flat[2 * i + 1] = headers.get(i)[1];
    }
    return flat;
  }
}
