package io.tollgate.engine;

import io.tollgate.bootstrap.TollgateBridge;
import io.tollgate.diagnostics.ProxySetupAdvisor;
import io.tollgate.diagnostics.RefusalLog;
import io.tollgate.diagnostics.RouteRulesAdvisor;
import io.tollgate.http.HttpExchange;
import io.tollgate.http.RefusalBody;
import io.tollgate.http.RefusalMessage;
import io.tollgate.http.RefusalResponse;
import io.tollgate.keys.PathNormalizer;
import io.tollgate.logging.AgentLog;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.outbound.OutboundLimiter;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The engine the framework modules call: finds the request's rules, decides, and either adds the
 * quota headers to the application's response or answers with the refusal in its place, through
 * the request's {@link HttpExchange}. It knows no framework: each module (under {@code
 * instrumentation/}) turns its framework's request into an exchange and applies the outcome in its
 * framework's way.
 *
 * <p>A request can pass several entry points: a servlet filter, then Spring's handler adapter or a
 * JAX-RS resource method invoker. Each rule is decided at one of them ({@link DecisionPoint}):
 * rules on paths at the outermost entry ({@link #outermostEntry}), rules on route templates where
 * the framework knows the route ({@link #handlerEntry}), and every rule at a framework's handler
 * when no servlet container stands in front of it.
 *
 * <p>What a decision holds (concurrency permits) is given back in a {@code finally} that starts
 * where it was taken, unless it has been handed to the request's scope, whose end gives it back:
 * a failure anywhere in between cannot leak a permit. And no request is held by the agent longer
 * than {@link RequestHold#MAX_SECONDS} seconds in all.
 */
public final class TollgateGate {

  /**
   * A switch for tests of the fail-open guarantee: with it set, every decision throws, and every
   * request must still succeed.
   */
  static final String INJECT_FAILURE_PROPERTY = "tollgate.test.inject-failure";

  /**
   * The request context of this thread: the request it is serving from its outermost entry point
   * until it returns ({@link RequestScope#active}), and in between requests the context the next
   * one reuses.
   */
  private static final ThreadLocal<RequestScope> CURRENT = new ThreadLocal<>();
  /** The request a server without the servlet API (Grizzly) is handling on this thread. */
  private static final ThreadLocal<ServerRequest> SERVER_REQUEST = new ThreadLocal<>();

  private final RulesHolder rules;
  private final RequestDecider decider = new RequestDecider();
  private final RateLimitedLog shadowLog = new RateLimitedLog(1_000);
  private final ProxySetupAdvisor proxyAdvisor = new ProxySetupAdvisor();
  private final RouteRulesAdvisor routeRulesAdvisor = new RouteRulesAdvisor();
  /** Made once: the end of every outermost request hands it to {@link #routeRulesAdvisor}. */
  private final Supplier<List<String>> namesOfRouteRules = new Supplier<List<String>>() {
    // A class, not a method reference: made at start, where linking one spins a class
    @Override
    public List<String> get() {
      return routeRuleNames();
    }
  };
  private final boolean injectFailure = Boolean.getBoolean(INJECT_FAILURE_PROPERTY);
  /**
   * Whether a framework's handler (Spring MVC's, or a JAX-RS one behind a servlet container) has
   * run in this JVM: then rules keyed by the user can wait for it, after the security filters.
   */
  private volatile boolean handlerPointSeen;

  public TollgateGate(RulesHolder rules) {
    this.rules = rules;
  }

  /**
   * The outbound rules in force, which client modules ask before the app's own calls go out
   * ({@link OutboundLimiter#active} false when the rules file has none).
   */
  public OutboundLimiter outbound() {
    return rules.outbound();
  }

  /**
   * Whether any rule is in force: entry points ask first, and do nothing more when none is (where
   * the tests' injected failure strikes).
   */
  public boolean active() {
    if (rules.current().isEmpty()) {
      return false;
    }
    failIfInjected();
    return true;
  }

  /** The request this thread is serving from its outermost entry point, or null. */
  public RequestScope currentRequest() {
    return active(CURRENT.get());
  }

  /**
   * This thread's request context as it is: the request it serves ({@link #isServing}), or the
   * idle context its next request reuses, or null before its first. For an entry point that asks
   * whether the thread serves a request and, when not, goes on to {@link
   * #outermostEntry(HttpExchange, RequestScope)}: one look at the thread's map for both (on a
   * server's thread, whose map holds the server's own thread locals, a look may probe past other
   * entries).
   */
  public RequestScope threadContext() {
    return CURRENT.get();
  }

  /** Whether {@code context} ({@link #threadContext}) is a request this thread is serving. */
  public static boolean isServing(RequestScope context) {
    return context != null && context.active;
  }

  private static RequestScope active(RequestScope scope) {
    return scope != null && scope.active ? scope : null;
  }

  /**
   * The rules in force, for an entry point that looks a request's path up ({@link
   * RuleSet#rulesOnPath}) and then has it decided by the same rules ({@link
   * #outermostEntry(HttpExchange, RequestScope, RuleSet, String, int[])}), a reload between the
   * two notwithstanding.
   */
  public RuleSet rulesInForce() {
    return rules.current();
  }

  /**
   * The path the rules match for a request's URI as the container holds it ({@code rawPath}; null
   * when there is none): the same string when it is normal already, as it is on nearly every
   * request.
   */
  public static String pathOf(String rawPath) {
    return rawPath == null ? null : PathNormalizer.normalize(rawPath);
  }

  /**
   * Whether the proxy set-up advisor looks at this request, which no rule applies to ({@link
   * RuleSet#rulesOnPath}): it watches every request for forwarding headers, as it does the decided ones
   * ({@link #outermostEntry}); then the entry point passes it to {@link #observeProxySetup}.
   */
  public boolean wantsProxySample() {
    return wantsProxySample(rules.current());
  }

  /** Whether the proxy set-up advisor (watching while no proxy is trusted) wants a sample. */
  private boolean wantsProxySample(RuleSet ruleSet) {
    return ruleSet.trustsNoProxy() && proxyAdvisor.wantsSample();
  }

  /** The request's peer and forwarding headers, for the proxy set-up advisor. */
  public void observeProxySetup(HttpExchange exchange) {
    proxyAdvisor.observe(
        exchange.remoteAddress(),
        exchange.header("X-Forwarded-For") != null || exchange.header("Forwarded") != null);
  }

  /**
   * The outermost entry point of a request (the first servlet filter or servlet of its original
   * dispatch), which the module has marked so that no later point asks again: decides the rules on
   * paths.
   *
   * @return the request's scope, for {@link #requestEnded}; {@link RequestScope#REFUSED} when it
   *     was refused (its response written through the exchange)
   */
  public RequestScope outermostEntry(HttpExchange exchange) {
    return outermostEntry(exchange, CURRENT.get());
  }

  /**
   * As {@link #outermostEntry(HttpExchange)}, with this thread's context as {@link #threadContext}
   * gave it to the caller, who found it not {@link #isServing serving} a request; nothing on this
   * thread has decided a request since.
   */
  public RequestScope outermostEntry(HttpExchange exchange, RequestScope threadContext) {
    return outermostEntry(exchange, threadContext, rules.current(), null, null);
  }

  /**
   * As {@link #outermostEntry(HttpExchange, RequestScope)}, for an entry point that has asked
   * whether any rule applies: {@code ruleSet} ({@link #rulesInForce}) decides the request, on
   * {@code path} ({@link #pathOf} of the exchange's raw path) and the rules {@code onPath} ({@link
   * RuleSet#rulesOnPath}: not {@link RuleSet#NO_RULE}), so that the decision neither normalizes the
   * path nor looks the rules up again. With {@code path} null, the decision does both itself.
   */
  public RequestScope outermostEntry(
      HttpExchange exchange, RequestScope threadContext, RuleSet ruleSet, String path,
      int[] onPath) {
    if (wantsProxySample(ruleSet)) {
      observeProxySetup(exchange);
    }
    RequestScope idle = threadContext;
    RequestScope scope = contextFor(exchange, idle);
    List<Rule> waiting = ruleSet.hasPrincipalRules() ? new ArrayList<>(1) : null;
    List<Rule> waitingForBody = ruleSet.hasBodyRules() ? new ArrayList<>(1) : null;
    long held = TollgateBridge.startupWaitNanos();
    RuleVerdicts verdicts = scope.verdicts; // empty: this decision adds the request's first
    boolean handedOver = false;
    try {
      decide(exchange, null, ruleSet, DecisionPoint.FIRST_ENTRY, verdicts, waiting,
          waitingForBody, held, scope, path, onPath);
      if (verdicts.size() > 0
          && refuseOrPass(exchange, verdicts, ruleSet, held + verdicts.heldByLastPoint)) {
        handedOver = true; // given back by the refusal
        return RequestScope.REFUSED;
      }
      // no verdicts: no store was asked, and matching alone holds a request for nothing to count
      scope.heldNanos = held + (verdicts.size() == 0 ? 0 : verdicts.heldByLastPoint);
      if (waiting != null && !waiting.isEmpty()) {
        scope.waitingForPrincipal = waiting;
      }
      keepBodyWaiting(scope, waitingForBody);
      scope.active = true;
      if (scope != idle && idle != null) {
        CURRENT.set(scope); // a request inside another's: now this thread's current one
      }
      handedOver = true; // given back at the request's end
      return scope;
    } finally {
      if (!handedOver) {
        verdicts.releaseHeld(); // what this decision took before it failed
      }
    }
  }

  /**
   * The request context this thread's outermost entry point fills: the one the thread's previous
   * request left ({@code idle}: its verdicts, first entry and first verdict reused, so that a
   * request allocates none of them), or a new one when that is in use by a request this one runs
   * inside, or the thread has none (its first request, or its previous one's end comes later).
   */
  private static RequestScope contextFor(HttpExchange exchange, RequestScope idle) {
    if (idle == null) {
      RequestScope scope = new RequestScope(exchange, new RuleVerdicts());
      CURRENT.set(scope); // kept by the thread from now on, for its next requests too
      return scope;
    }
    if (idle.active) {
      return new RequestScope(exchange, new RuleVerdicts());
    }
    idle.reuseFor(exchange);
    return idle;
  }

  /**
   * A later entry point of a request whose rules keyed by the user wait for it ({@link
   * RequestScope#waitsForUser}), seen as that point sees the request (often wrapped by a security
   * filter): decides them here if the request now has a user. True when they refused it.
   */
  public boolean laterEntry(RequestScope scope, HttpExchange exchange) {
    if (exchange.principalName() == null) {
      return false;
    }
    RuleSet ruleSet = rules.current();
    List<Rule> waiting = scope.waitingForPrincipal;
    return decideWaiting(scope, exchange, ruleSet, DecisionPoint.LATER_ENTRY, waiting,
        bodyWaitingOf(scope, ruleSet));
  }

  /**
   * How a framework's handler reads the method of its request as the application runs it (after a
   * method override such as Spring's {@code _method}), from the framework's request object; null
   * when it cannot tell.
   */
  public interface MethodAsRun {
    String of(Object request);
  }

  /**
   * Whether a framework's handler, about to run, has anything to decide; false lets it run
   * without building an exchange. As {@link #decidesAtHandler(boolean, MethodAsRun, Object)},
   * for a handler that cannot read the method before its exchange is built.
   */
  public boolean decidesAtHandler(boolean mayBeOnlyEntry) {
    return decidesAtHandler(mayBeOnlyEntry, null, null);
  }

  /**
   * Whether a framework's handler, about to run, has anything to decide; false lets it run
   * without building (or marking) an exchange.
   *
   * @param mayBeOnlyEntry whether the framework also runs without a servlet container in front
   *     (Jersey on Grizzly), where its handler is the only entry point and decides every rule
   * @param methodAsRun reads {@code request}'s method as the application runs it, or null when
   *     the handler cannot before building its exchange ({@link #handlerEntry} then tells)
   */
  public boolean decidesAtHandler(
      boolean mayBeOnlyEntry, MethodAsRun methodAsRun, Object request) {
    RequestScope scope = active(CURRENT.get());
    boolean only = mayBeOnlyEntry && scope == null;
    if (!only) {
      noteHandlerPoint();
    }
    RuleSet ruleSet = rules.current();
    if (ruleSet.isEmpty()) {
      return false;
    }
    if (!only && !ruleSet.hasRouteRules()) {
      // Only the rules that waited for the user, or those that match by a method override the
      // application honours (seen only here), can be decided here.
      if (scope == null
          || (!scope.waitsForUser()
              && !(ruleSet.hasMethodRules() && mayBeOverridden(scope, methodAsRun, request)))) {
        return false;
      }
    }
    failIfInjected();
    return true;
  }

  /** Whether the application may run the request by another method than its outermost entry saw. */
  private static boolean mayBeOverridden(
      RequestScope scope, MethodAsRun methodAsRun, Object request) {
    if (methodAsRun == null) {
      return true;
    }
    String method = methodAsRun.of(request);
    return method == null || !method.equals(scope.exchange.method());
  }

  /**
   * A framework's handler is about to run, the route template known to the exchange (which the
   * module has marked, so that the request is decided here once): decides the rules on routes and
   * those that waited for the user, or, with no outermost entry point before it and {@code
   * mayBeOnlyEntry}, every rule. True when the request was refused: its response is written, or
   * made, through the exchange.
   */
  public boolean handlerEntry(HttpExchange exchange, boolean mayBeOnlyEntry) {
    RuleSet ruleSet = rules.current();
    RequestScope scope = active(CURRENT.get());
    DecisionPoint point =
        mayBeOnlyEntry && scope == null ? DecisionPoint.ONLY_ENTRY : DecisionPoint.ROUTE;
    List<Rule> waiting = scope == null ? null : scope.waitingForPrincipal;
    String sentMethod = scope == null ? null : scope.exchange.method();
    if (point == DecisionPoint.ROUTE
        && !ruleSet.hasRouteRules()
        && waiting == null
        && exchange.method().equals(sentMethod)) {
      return false; // only a method override could have brought it here, and there is none
    }
    RuleVerdicts earlier = scope == null ? null : scope.verdicts;
    int before = earlier == null ? 0 : earlier.size();
    if (scope != null) {
      scope.waitingForPrincipal = null; // decided here, once
    }
    long held = scope == null ? TollgateBridge.startupWaitNanos() : scope.heldNanos;
    List<Rule> waitingForBody = scope == null ? null : bodyWaitingOf(scope, ruleSet);
    RuleVerdicts verdicts = decide(exchange, sentMethod, ruleSet, point, earlier, waiting,
        waitingForBody, held, scope, null, null);
    if (scope != null) {
      keepBodyWaiting(scope, waitingForBody);
    }
    if (verdicts == null || verdicts.size() == before) {
      return false;
    }
    boolean handedOver = false;
    try {
      if (scope != null) {
        handedOver = true; // the scope's own: given back at the request's end
      } else if (verdicts.holdsAnything()) {
        ServerRequest server = SERVER_REQUEST.get();
        if (server != null) {
          server.held = verdicts;
          handedOver = true; // given back when the server's request ends
        }
        // else no end will be reported (a server Tollgate does not know): given back now
      }
      boolean refused =
          refuseOrPass(exchange, verdicts, ruleSet, held + verdicts.heldByLastPoint);
      if (!refused && scope == null && verdicts.hasChargesToSettle()) {
        // no servlet request in front whose end settles them: the exchange's own end does
        exchange.whenComplete(() -> ended(verdicts, exchange, false));
      }
      return refused;
    } finally {
      if (scope != null) {
        scope.heldNanos += verdicts.heldByLastPoint;
      }
      if (!handedOver) {
        verdicts.releaseHeld();
      }
    }
  }

  /**
   * The application reads its request's parameters or body for the first time ({@code
   * exchange} now knows whether it parsed a form or took the raw body), the read begun by {@link
   * RequestScope#beginBodyRead}: decides the rules whose
   * key is a form body's field, which waited for this ({@link RequestScope#waitsForBody}). True
   * when they refused the request: its response is written, and the caller must stop the
   * application's read.
   */
  public boolean bodyRead(RequestScope scope, HttpExchange exchange) {
    List<Rule> waiting = scope.waitingForBody;
    scope.bodyReadBegun = false;
    if (waiting == null) {
      return false;
    }
    scope.waitingForBody = null; // decided here, once
    return decideWaiting(scope, exchange, rules.current(), DecisionPoint.BODY_READ, waiting, null);
  }

  /**
   * Decides the rules of a begun request that waited for a later {@code point} ({@code waiting},
   * from which the decided ones are removed), adding to its verdicts; those still waiting for the
   * body go to {@code waitingForBody} (when not null). When {@code waiting} is the list of rules
   * waiting for the user and none is left in it, the request waits for its user no longer. True
   * when the new verdicts refused the request.
   */
  private boolean decideWaiting(RequestScope scope, HttpExchange exchange, RuleSet ruleSet,
      DecisionPoint point, List<Rule> waiting, List<Rule> waitingForBody) {
    RuleVerdicts verdicts = scope.verdicts; // the scope's own: its end gives back what is taken
    int before = verdicts.size();
    decide(exchange, null, ruleSet, point, verdicts, waiting, waitingForBody, scope.heldNanos,
        scope, null, null);
    keepBodyWaiting(scope, waitingForBody);
    if (waiting == scope.waitingForPrincipal && waiting.isEmpty()) {
      scope.waitingForPrincipal = null;
    }
    boolean decided = verdicts.size() != before;
    try {
      return decided
          && refuseOrPass(exchange, verdicts, ruleSet, scope.heldNanos + verdicts.heldByLastPoint);
    } finally {
      if (decided) {
        scope.heldNanos += verdicts.heldByLastPoint;
      }
    }
  }

  /** The list a decision adds the rules that must wait for the body to: the scope's, or a new one. */
  private static List<Rule> bodyWaitingOf(RequestScope scope, RuleSet ruleSet) {
    if (scope.waitingForBody != null) {
      return scope.waitingForBody;
    }
    return ruleSet.hasBodyRules() ? new ArrayList<>(1) : null;
  }

  private static void keepBodyWaiting(RequestScope scope, List<Rule> waitingForBody) {
    scope.waitingForBody =
        waitingForBody == null || waitingForBody.isEmpty() ? null : waitingForBody;
  }

  /**
   * Acts on a request's verdicts: writes the refusal in place of the application's answer (and
   * returns true), or adds the quota headers and lets it pass (false), after any pacing delay
   * (cut to what is left of the most a request may be held, having been held {@code heldNanos}).
   */
  private boolean refuseOrPass(
      HttpExchange exchange, RuleVerdicts verdicts, RuleSet ruleSet, long heldNanos) {
    if (verdicts.refused()) {
      logShadow(verdicts);
      RefusalMessage refusal = refusalOf(exchange, verdicts, ruleSet);
      verdicts.releaseHeld();
      exchange.writeRefusal(refusal);
      refused(exchange, verdicts, refusal);
      return true;
    }
    setHeaders(exchange, verdicts, ruleSet);
    logAllowed(exchange, verdicts);
    long delay = RequestHold.pacing(verdicts.takeDelayNanos(), heldNanos);
    if (delay > 0) {
      long start = System.nanoTime();
      RequestPacing.hold(delay);
      verdicts.heldByLastPoint += System.nanoTime() - start; // the pacing held the request too
    }
    return false;
  }

  /**
   * The outermost entry point that began {@code scope} has returned: what the request holds is
   * given back when it is over (now, or when an asynchronous request completes).
   */
  public void requestEnded(RequestScope scope) {
    requestEnded(scope, null);
  }

  /**
   * As {@link #requestEnded(RequestScope)}, where {@code thrown}, when not null, escaped the
   * application: its response counts as the 500 the server answers ({@link
   * HttpExchange#responseStatus(boolean)}) when charges are settled by status, and the request
   * failed, as it did when its response status is 5xx or an asynchronous request failed or timed
   * out. Rules that learn from latency count a failure as congestion.
   */
  public void requestEnded(RequestScope scope, Throwable thrown) {
    scope.active = false;
    boolean reusable = false;
    try {
      routeRulesAdvisor.requestEnded(handlerPointSeen, rules.current(), namesOfRouteRules);
    } finally {
      try {
        RuleVerdicts verdicts = scope.verdicts;
        if (verdicts.hasWorkAtEnd()) {
          // the end may come later, on another thread: the context is the request's until then
          HttpExchange exchange = scope.exchange;
          boolean uncaught = thrown != null;
          exchange.whenComplete(() -> ended(verdicts, exchange, uncaught));
        } else {
          reusable = true; // nothing refers to the context now but this thread
        }
      } finally {
        if (CURRENT.get() == scope) {
          if (reusable) {
            scope.release(); // kept for the thread's next request
          } else {
            CURRENT.set(null); // set, not remove: the thread's entry stays for the next request
          }
        }
      }
    }
  }

  /**
   * Settles and gives back what {@code verdicts} charged and hold, the request over: the status is
   * read only when a charge may be settled ({@code count-when}, {@code cost-header}) or a rule
   * learns from the outcome (adaptive concurrency).
   */
  private static void ended(RuleVerdicts verdicts, HttpExchange exchange, boolean uncaught) {
    int status =
        verdicts.hasChargesToSettle() || verdicts.learnsFromOutcome()
            ? exchange.responseStatus(uncaught)
            : -1;
    verdicts.requestEnded(status, uncaught || failed(status), exchange::responseHeader);
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

  /**
   * A server without the servlet API (Grizzly) starts handling a request on this thread, from a
   * client at {@code remoteAddress}: its framework's handler has no other way to know it.
   */
  public void serverRequestStarted(String remoteAddress) {
    SERVER_REQUEST.set(new ServerRequest(remoteAddress));
  }

  /** The client address of the server request this thread handles, or null. */
  public String serverRemoteAddress() {
    ServerRequest server = SERVER_REQUEST.get();
    return server == null ? null : server.remoteAddress;
  }

  /** The server's request handler returned: gives back what its request held. */
  public void serverRequestEnded() {
    serverRequestEnded(-1, null);
  }

  /**
   * The server's request handler returned, its response's status {@code status} (-1 when
   * unknown), having thrown {@code thrown} or null: gives back what its request held, and tells the
   * rules that learn from latency whether it failed.
   */
  public void serverRequestEnded(int status, Throwable thrown) {
    ServerRequest server = SERVER_REQUEST.get();
    SERVER_REQUEST.remove();
    if (server != null && server.held != null) {
      // asynchronous resources give back when the container call returns
      server.held.completeHeld(thrown != null || failed(status));
    }
  }

  /** A response status that says the application failed or timed out: 5xx. */
  static boolean failed(int status) {
    return status >= 500 && status <= 599;
  }

  /** A request of a server without the servlet API: its client, and what it holds until its end. */
  private static final class ServerRequest {
    final String remoteAddress;
    RuleVerdicts held;

    ServerRequest(String remoteAddress) {
      this.remoteAddress = remoteAddress;
    }
  }

  /**
   * Decides at one entry point, for a request held {@code heldNanos} before, adding to {@code
   * earlier} (or to new verdicts, returned, when it is null), and counts this decision's verdicts
   * in the rule metrics; at a handler, the request method may be overridden from {@code
   * sentMethod} (the method the outermost entry point saw, or null). Rules reached whose key is a
   * body field not read yet are added to {@code waitingForBody} when it is not null.
   *
   * <p>The clock is read before and after only when the decision is timed ({@link
   * DecisionTiming}): when a store may hold the request (a shared store, a queue), when the
   * request has been held already, and for one decision in {@value DecisionTiming#STRIDE} of the
   * request's thread, which stands for the others in the metrics. A local decision otherwise
   * holds the request for nothing worth a clock reading (~30 ns each on a virtual machine), and
   * its store reads the clock once itself. The time held is kept as the verdicts' {@link
   * RuleVerdicts#heldByLastPoint}.
   *
   * <p>On the request's {@code path} and the rules {@code onPath} that its outermost entry point
   * found ({@link RuleSet#rulesOnPath}), or, with {@code path} null (any later point), looked up
   * here.
   */
  private RuleVerdicts decide(
      HttpExchange exchange,
      String sentMethod,
      RuleSet ruleSet,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      List<Rule> waitingForBody,
      long heldNanos,
      RequestScope scope,
      String path,
      int[] onPath) {
    int before = earlier == null ? 0 : earlier.size();
    long weight = DecisionTiming.weight(scope, heldNanos, storesMayHold(ruleSet));
    long start = weight == 0 ? 0 : System.nanoTime();
    long deadline = weight == 0 ? Long.MAX_VALUE : RequestHold.deadline(start, heldNanos);
    if (path == null) {
      path = PathNormalizer.normalize(exchange.rawPath());
      onPath = ruleSet.candidatesFor(path);
    }
    RuleVerdicts verdicts = decider.decide(exchange, sentMethod, ruleSet, point, earlier, waiting,
        waitingForBody, handlerPointSeen, deadline, start, path, onPath);
    if (verdicts != null && verdicts.size() > before) {
      long took = weight == 0 ? 0 : System.nanoTime() - start;
      verdicts.heldByLastPoint = took;
      DecisionMetrics.record(verdicts, before, took, weight);
    }
    return verdicts;
  }

  /**
   * Whether a store of the rules in force may hold a request: asked once per set of rules, the
   * answer noted on the rule set itself, which the request reads anyway.
   */
  private static boolean storesMayHold(RuleSet ruleSet) {
    byte known = ruleSet.storesMayHold();
    if (known == RuleSet.STORES_MAY_HOLD_UNKNOWN) {
      boolean mayHold = DecisionTiming.anyStoreMayHold(ruleSet);
      ruleSet.noteStoresMayHold(mayHold); // racing threads note the same answer
      return mayHold;
    }
    return known == RuleSet.STORES_MAY_HOLD;
  }

  private void failIfInjected() {
    if (injectFailure) {
      throw new IllegalStateException(
          "failure injected for testing (-D" + INJECT_FAILURE_PROPERTY + "=true)");
    }
  }

  /** The quota headers of an allowed request, set on its response directly. */
  private void setHeaders(HttpExchange exchange, RuleVerdicts verdicts, RuleSet ruleSet) {
    logShadow(verdicts);
    QuotaHeaders.setOn(exchange, verdicts, ruleSet.headers());
  }

  private void logShadow(RuleVerdicts verdicts) {
    RuleVerdicts.Entry shadow = verdicts.wouldRefuse();
    if (shadow != null) {
      String client = RuleVerdicts.clientOverShare(shadow);
      shadowLog.log(shadow.rule.name(), () -> "shadow: rule '" + shadow.rule.name()
          + "' would refuse key " + KeyDisplay.of(shadow.key)
          + (client == null ? "" : " (client '" + client + "' holds its per-client share)"));
    }
  }

  /**
   * The answer to a refused request, as one value that the module writes with its own API: the
   * refusing rule's status and body (negotiated from {@code Accept} unless the rule has its own),
   * the quota headers and the refusal's. The rule keeps the values it answered lately, so that a
   * flood's refusals (the same second, the same quota headers) allocate nothing here.
   */
  private static RefusalMessage refusalOf(
      HttpExchange exchange, RuleVerdicts verdicts, RuleSet ruleSet) {
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    String[] quota = verdicts.refusalHeaders();
    int quotaLength = QuotaHeaders.putInto(quota, verdicts, ruleSet.headers());
    RefusalBody body = refusedBy.rule.refusalBody();
    // no Accept (scripts, most of a flood): problem+json, without enumerating the header's lines
    boolean html = !body.hasTemplate() && exchange.header("Accept") != null
        && RefusalResponse.prefersHtml(exchange.headerLines("Accept"));
    return body.message(refusedBy.verdict.backendUnavailable, refusedBy.rule.name(),
        RefusalResponse.retryAfterSeconds(refusedBy.verdict.retryAfterNanos),
        refusedBy.rule.policy(), html, quota, quotaLength);
  }

  /** A refusal was written: logged (a few lines a minute per rule), and early retries counted. */
  private static void refused(
      HttpExchange exchange, RuleVerdicts verdicts, RefusalMessage refusal) {
    RuleVerdicts.Entry refusedBy = verdicts.refusedBy();
    long retryAfter = RefusalResponse.retryAfterSeconds(refusedBy.verdict.retryAfterNanos);
    long now = System.nanoTime(); // one reading for the refusal log and the early retries
    logRefusal(exchange, refusedBy, retryAfter, refusal.status(), now);
    EarlyRetries.refused(verdicts, retryAfter, now);
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

  private static void logRefusal(HttpExchange exchange, RuleVerdicts.Entry refusedBy,
      long retryAfter, int status, long nowNanos) {
    if (AgentLog.isDebug()) {
      AgentLog.debug("refused " + exchange.method() + " " + exchange.rawPath() + " by rule '"
          + refusedBy.rule.name() + "' (" + refusedBy.rule.algorithmName() + ") key "
          + shownKey(refusedBy) + "; retry after " + retryAfter + "s");
      return;
    }
    // Without debug: the refusal log, a few lines a minute per rule and a summary of the rest;
    // the key is shown (a string made) only for the lines written.
    RefusalLog refusals = RefusalLog.shared();
    if (refusals.admit(refusedBy.rule.name(), nowNanos)) {
      refusals.write(refusedBy.rule.name(), exchange.method(), exchange.rawPath(),
          shownKey(refusedBy), retryAfter, status);
    }
  }

  /** The refused key as the log shows it; a per-client refusal names the client too. */
  private static String shownKey(RuleVerdicts.Entry refusedBy) {
    // a per-client refusal names the client, or the log would show only the shared key ('*')
    String overShare = RuleVerdicts.clientOverShare(refusedBy);
    return KeyDisplay.of(refusedBy.key) + (overShare == null ? ""
        : " (client " + KeyDisplay.of(overShare) + " holds its per-client share)");
  }
}
