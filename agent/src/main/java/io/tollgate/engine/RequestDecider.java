package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import io.tollgate.keys.PathNormalizer;
import io.tollgate.limiters.Verdict;
import io.tollgate.rules.ClientShare;
import io.tollgate.rules.PenaltyTracker;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.stores.BudgetGroup;
import java.util.List;

/**
 * Applies every matching rule to a request. Each rule counts the request against its own key; the
 * request is refused when any enforcing rule refuses it.
 *
 * <p>Within one rule: a request its {@code allow} list exempts is not counted at all; a key in the
 * rule's penalty box is refused without being counted; otherwise the request is decided on each of
 * the rule's budgets (its limits, or its plan's), and when one of them refuses, what the others
 * took is given back, so that a refused request costs nothing on the rule's other limits: within
 * one step when the budgets are a {@link BudgetGroup} (one monitor, one Redis script), else here. Refusals
 * are then counted towards the penalty box.
 */
public final class RequestDecider {

  /**
   * The {@code Retry-After} of a request refused for its client's {@code per-client} share: as a
   * concurrency rule's own refusal, nothing says when one of its requests will end.
   */
  static final long SHARE_RETRY_AFTER_NANOS = 1_000_000_000L;

  /**
   * Decides the rules taken at {@code point}, adding their verdicts to {@code earlier} (the
   * verdicts of an earlier point of the same request, or null).
   *
   * @return the verdicts so far, or null when no rule applied at all
   */
  public RuleVerdicts decide(
      HttpExchange exchange, RuleSet rules, DecisionPoint point, RuleVerdicts earlier) {
    return decide(exchange, rules, point, earlier, null, false);
  }

  /**
   * As {@link #decide(HttpExchange, RuleSet, DecisionPoint, RuleVerdicts)}, where rules keyed by
   * the authenticated user may wait for it (an application's security filter sets it after the
   * first servlet entry point):
   *
   * <ul>
   *   <li>at {@link DecisionPoint#FIRST_ENTRY}, with {@code waiting} a list, such a rule on a
   *       request without a user yet is added to it instead of being decided; when
   *       {@code handlerAhead} is false (no framework handler will come), only if the rule has no
   *       {@code key-fallback}, which must apply where the rule is decided;
   *   <li>at {@link DecisionPoint#LATER_ENTRY}, which the caller reaches once the request has a
   *       user, the waiting rules are decided and leave {@code waiting};
   *   <li>at the framework's handler ({@link DecisionPoint#ROUTE}), the waiting rules are decided
   *       with the others, with or without a user (then by the fallback, or not at all).
   * </ul>
   */
  public RuleVerdicts decide(
      HttpExchange exchange,
      RuleSet rules,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      boolean handlerAhead) {
    return decide(exchange, rules, point, earlier, waiting, handlerAhead, Long.MAX_VALUE);
  }

  /**
   * As {@link #decide(HttpExchange, RuleSet, DecisionPoint, RuleVerdicts, List, boolean)}, where
   * no rule is decided once the request has been held until {@code deadline} (a {@link
   * System#nanoTime()}; see {@link RequestHold}): the request passes the rules left, as it would if
   * their store could not answer and their {@code on-failure} were {@code allow}.
   */
  public RuleVerdicts decide(
      HttpExchange exchange,
      RuleSet rules,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      boolean handlerAhead,
      long deadline) {
    return decide(exchange, null, rules, point, earlier, waiting, handlerAhead, deadline);
  }

  /**
   * As above, at a framework's handler whose request method ({@code exchange.method()}, as the
   * application sees it) may differ from the one the first entry point saw ({@code sentMethod},
   * or null when there was none): an override such as Spring's {@code _method}. A rule counts the
   * request when either method matches; the rules that match only by the override were not
   * decided at the first entry point, so they are decided here (see {@link Rule#matches(String,
   * String, String)}).
   *
   * <p>Should deciding a rule fail, what the rules decided before it took is given back (unless it
   * is in {@code earlier}, whose request's end gives it back), and the failure is thrown.
   */
  public RuleVerdicts decide(
      HttpExchange exchange,
      String sentMethod,
      RuleSet rules,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      boolean handlerAhead,
      long deadline) {
    return decide(
        exchange, sentMethod, rules, point, earlier, waiting, null, handlerAhead, deadline);
  }

  /**
   * As above, where a rule whose key is a form body's field that the application has not read yet
   * ({@link Rule#lacksBodyYet}) is added to {@code waitingForBody} (when not null) instead of
   * being decided: at {@link DecisionPoint#BODY_READ}, when the application reads its parameters
   * or body, the caller passes that list as {@code waiting} and those rules are decided. Which
   * entry point came first does not matter: whichever decides defers such a rule.
   */
  public RuleVerdicts decide(
      HttpExchange exchange,
      String sentMethod,
      RuleSet rules,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      List<Rule> waitingForBody,
      boolean handlerAhead,
      long deadline) {
    String path = PathNormalizer.normalize(exchange.rawPath());
    return decide(exchange, sentMethod, rules, point, earlier, waiting, waitingForBody,
        handlerAhead, deadline, System.nanoTime(), path, rules.candidatesFor(path));
  }

  /**
   * As above, on the request's path as normalized already ({@code path}) and the rules that may
   * match it ({@code candidates}: positions in {@code rules}, in file order, each still matched in
   * full; null for every rule), as the entry point found them when it asked whether any rule
   * applies ({@link RuleSet#rulesOnPath}): a decided request normalizes and looks up its path once;
   * and for a decision that began at {@code startNanos} (the caller's {@link System#nanoTime()},
   * passed down so that the clock is not read again): until a rule has been decided here, nothing
   * can have held the request since, so whether it is past {@code deadline} is known from that
   * instant; after one, a store may have held it, and the clock is read.
   */
  public RuleVerdicts decide(
      HttpExchange exchange,
      String sentMethod,
      RuleSet rules,
      DecisionPoint point,
      RuleVerdicts earlier,
      List<Rule> waiting,
      List<Rule> waitingForBody,
      boolean handlerAhead,
      long deadline,
      long startNanos,
      String path,
      int[] candidates) {
    String method = exchange.method();
    String sent = sentMethod == null ? method : sentMethod;
    boolean overridden = !sent.equals(method);
    RuleVerdicts verdicts = earlier;
    boolean deferring = waiting != null && point == DecisionPoint.FIRST_ENTRY;
    boolean resuming = waiting != null && point != DecisionPoint.FIRST_ENTRY;
    boolean decidedHere = false;
    try {
      // narrowed by path first (a long file by its index); the rules left are applied in file order
      for (int c = 0, n = candidates == null ? rules.size() : candidates.length; c < n; c++) {
        Rule rule = rules.get(candidates == null ? c : candidates[c]);
        boolean decidesHere = point.decides(rule) || (resuming && waiting.contains(rule));
        if (decidesHere
            ? !rule.matches(sent, method, path)
                || (rule.needsRoute()
                    && point != DecisionPoint.BODY_READ // matched where it began to wait
                    && !rule.matchesRoute(routeAt(point, exchange)))
            : !(overridden && rule.matchesOnlyByOverride(sent, method, path))) {
          continue;
        }
        // after path and method, so that rules on other paths read no header
        if (!rule.matchesHostAndHeaders(exchange) || rule.skips(exchange, sent, method, path)) {
          continue;
        }
        if (deferring
            && rule.lacksPrincipalYet(exchange)
            && (handlerAhead || !rule.hasKeyFallback())) {
          waiting.add(rule);
          continue;
        }
        if (point == DecisionPoint.LATER_ENTRY || point == DecisionPoint.BODY_READ) {
          waiting.remove(rule);
        }
        if (waitingForBody != null
            && point != DecisionPoint.BODY_READ
            && rule.lacksBodyYet(exchange)) {
          waitingForBody.add(rule);
          continue;
        }
        String key = rule.keyFor(exchange);
        if (key == null || rule.isAllowlisted(exchange, key)) {
          continue;
        }
        if (deadline != Long.MAX_VALUE
            && (decidedHere ? System.nanoTime() : startNanos) - deadline > 0) {
          RequestHold.heldTooLong(rule, exchange);
          continue;
        }
        if (verdicts == null) {
          verdicts = new RuleVerdicts();
        }
        decideRule(rule, exchange, key, rule.costFor(path), verdicts, deadline);
        decidedHere = true;
      }
    } catch (RuntimeException | Error e) {
      // a new object (not earlier, which the caller holds) holds only what this decision took
      if (verdicts != null && verdicts != earlier) {
        verdicts.releaseHeld();
      }
      throw e;
    }
    return verdicts;
  }

  /**
   * A shadow rule's request over its client's share: a would-refuse, as enforcing the rule would
   * refuse it, so that the shadow log and metrics show what {@code per-client} will refuse before
   * the rule is enforced. The request runs (shadow), decided by the pool as a shadow rule's
   * would-refuse is: a permit the pool gave it goes back at once (a refused request holds none),
   * except on an adaptive rule, which counts its shadow would-refuses in flight until they end.
   * The client's share is not taken: enforced, the request would not have run.
   */
  private static void wouldRefuseForShare(Rule budget, String key, long cost, Verdict verdict) {
    if (verdict.allowed && budget.releasesAtEnd() && !budget.holdsWhenRefused()) {
      budget.store().release(key, cost);
    }
    verdict.refuse(0, SHARE_RETRY_AFTER_NANOS, SHARE_RETRY_AFTER_NANOS);
  }

  /**
   * The request's route template, asked for only when a rule needs it: Jersey works it out from
   * its matched templates (once per request), and at the first entry point it is not known yet.
   */
  private static String routeAt(DecisionPoint point, HttpExchange exchange) {
    return point == DecisionPoint.FIRST_ENTRY || point == DecisionPoint.LATER_ENTRY
        ? null
        : exchange.route();
  }

  /**
   * Decides one rule; a store that may hold the request for a permit ({@code max-wait}) holds it no
   * later than {@code deadline}. The common rule, of one limit without a penalty box or a
   * per-client share, is decided here; the others in {@link #decideRuleWithExtras}, so that this
   * method stays small enough for the JIT to inline into the request's decision (issue 29 item 2,
   * {@code benchmarks/jit-path.sh}).
   */
  private static void decideRule(
      Rule rule, HttpExchange exchange, String key, long cost, RuleVerdicts verdicts,
      long deadline) {
    Rule[] budgets = rule.budgetsFor(exchange);
    if (budgets.length == 1 && !rule.hasPenaltyOrClientShare()) {
      Rule budget = budgets[0];
      Verdict verdict = verdicts.nextVerdict();
      budget.store().decide(key, cost, verdict, deadline);
      verdicts.add(budget, key, cost, verdict, verdict.allowed, null);
      return;
    }
    decideRuleWithExtras(rule, budgets, exchange, key, cost, verdicts, deadline);
  }

  /** {@link #decideRule} for a rule of several limits, or with a penalty box or per-client share. */
  private static void decideRuleWithExtras(
      Rule rule, Rule[] budgets, HttpExchange exchange, String key, long cost,
      RuleVerdicts verdicts, long deadline) {
    PenaltyTracker penalty = rule.penalty();
    if (penalty != null) {
      Verdict boxed = verdicts.nextVerdict();
      if (penalty.check(key, boxed)) {
        verdicts.add(budgets[0], key, cost, boxed, false);
        return;
      }
    }
    if (budgets.length == 1) {
      ClientShare share = rule.clientShare();
      String client = share == null ? null : share.clientOf(exchange, key);
      boolean overShare = client != null && !share.tryTake(client, cost, budgets[0].permitsFor(key));
      if (overShare && !rule.isShadow()) {
        // the client holds its share of the permits: refused as the rule refuses, taking none
        Verdict verdict = new Verdict().refuse(0, SHARE_RETRY_AFTER_NANOS, SHARE_RETRY_AFTER_NANOS);
        verdicts.add(budgets[0], key, cost, verdict, false, client); // refused: holds nothing
        return;
      }
      Verdict verdict = verdicts.nextVerdict();
      try {
        budgets[0].store().decide(key, cost, verdict, deadline);
      } catch (RuntimeException | Error e) {
        if (client != null && !overShare) {
          share.release(client, cost);
        }
        throw e;
      }
      if (overShare) {
        wouldRefuseForShare(budgets[0], key, cost, verdict);
        verdicts.add(budgets[0], key, cost, verdict, false, client, false);
        return;
      }
      if (penalty != null) {
        penalty.record(key, verdict);
      }
      if (client != null && !verdict.allowed) {
        share.release(client, cost);
        client = null;
      }
      verdicts.add(budgets[0], key, cost, verdict, verdict.allowed, client);
      return;
    }
    Verdict[] each = new Verdict[budgets.length];
    for (int b = 0; b < budgets.length; b++) {
      each[b] = new Verdict();
    }
    BudgetGroup group = budgets[0].group();
    if (group != null) {
      // All or none, in one step: the group gives back what the others took when one refuses.
      group.decideAll(key, cost, each);
    } else {
      for (int b = 0; b < budgets.length; b++) {
        budgets[b].store().decide(key, cost, each[b]);
      }
    }
    Verdict longestRefusal = null;
    for (Verdict v : each) {
      if (!v.allowed && (longestRefusal == null || v.retryAfterNanos > longestRefusal.retryAfterNanos)) {
        longestRefusal = v;
      }
    }
    boolean refused = longestRefusal != null;
    if (refused) {
      for (int b = 0; group == null && b < budgets.length; b++) {
        if (each[b].allowed && !budgets[b].releasesAtEnd()) {
          budgets[b].store().adjust(key, -cost);
        }
      }
      if (penalty != null) {
        penalty.record(key, longestRefusal);
      }
    }
    for (int b = 0; b < budgets.length; b++) {
      verdicts.add(budgets[b], key, cost, each[b], each[b].allowed && !refused);
    }
  }
}
