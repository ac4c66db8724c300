package io.tollgate.replay;

import io.tollgate.config.Backend;
import io.tollgate.config.ConfigException;
import io.tollgate.config.RulesConfig;
import io.tollgate.engine.DecisionPoint;
import io.tollgate.engine.RequestDecider;
import io.tollgate.engine.RuleVerdicts;
import io.tollgate.http.RefusalResponse;
import io.tollgate.keys.PathNormalizer;
import io.tollgate.limiters.Clock;
import io.tollgate.replay.log.LoggedRequest;
import io.tollgate.replay.log.UnparsedLines;
import io.tollgate.rules.Rule;
import io.tollgate.rules.RuleSet;
import io.tollgate.rules.RuleSetFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays logged requests through the engine the agent runs: the rule set is built by the agent's
 * own {@link RuleSetFactory} on a clock that the log's timestamps move, and each request is decided
 * by the agent's {@link RequestDecider} at the servlet container's entry point, then ended as the
 * agent ends it (permits given back, costs corrected from a logged {@code cost-header}); a refused
 * request is ended as the agent ends one it refused. So matching, keys, client addresses behind
 * {@code trusted-proxies}, algorithms, costs, plans, allowlists and penalty boxes are the agent's.
 *
 * <p>Local semantics ({@link LocalSemantics}); the rules are built without connecting to anything,
 * and nothing here starts a thread, a metrics server or a file watcher. Not thread-safe: one
 * thread replays the requests in time order.
 */
public final class Replay {

  private final LogClock clock = new LogClock();
  private final RequestDecider decider = new RequestDecider();
  private final RuleSet ruleSet;
  private final List<ReplayedRule> rules;
  private final RuleTally[] tallies;
  private final Map<Rule, RuleTally> tallyOfRule = new IdentityHashMap<>();
  /** The rules whose requests are counted beside the engine: on routes, or with keys that may lack. */
  private final RuleTally[] watched;
  private final boolean fileSaidRedis;
  private final String rulesSource;
  private long requests;
  private long refusedRequests;
  private long shadowRefusedRequests;
  /** Requests the engine failed on (which the agent would have let through), and the first. */
  private long failedRequests;
  private String firstFailure;
  private long firstMillis = Long.MAX_VALUE;
  private long lastMillis = Long.MIN_VALUE;

  private Replay(RulesConfig config, int maxTrackedKeys) throws ConfigException {
    // Checked as the agent checks it (and validate does), with its backend.
    RuleSetFactory.withoutConnecting(Clock.system()).build(config, null);
    RulesConfig local = LocalSemantics.of(config);
    this.fileSaidRedis = config.backend() == Backend.REDIS;
    this.rulesSource = config.source();
    this.ruleSet = RuleSetFactory.withoutConnecting(clock.clock()).build(local, null);
    List<ReplayedRule> replayed = new ArrayList<>();
    this.tallies = new RuleTally[ruleSet.size()];
    List<RuleTally> watch = new ArrayList<>();
    for (int i = 0; i < ruleSet.size(); i++) {
      ReplayedRule rule =
          new ReplayedRule(i, ruleSet.get(i), local.rules().get(i), local.mode());
      replayed.add(rule);
      tallies[i] = new RuleTally(rule, maxTrackedKeys);
      tallyOfRule.put(rule.rule, tallies[i]);
      if (rule.mayMatchUndecided()) {
        watch.add(tallies[i]);
      }
    }
    this.rules = Collections.unmodifiableList(replayed);
    this.watched = watch.toArray(new RuleTally[0]);
  }

  /**
   * A replay of {@code config}'s rules, tracking each rule's first {@code maxTrackedKeys}
   * distinct keys exactly.
   *
   * @throws ConfigException when the agent would not apply the file
   */
  public static Replay of(RulesConfig config, int maxTrackedKeys) throws ConfigException {
    return new Replay(config, maxTrackedKeys);
  }

  /** Decides one request, the next in time order, and counts what each rule did to it. */
  public void replay(LoggedRequest request) {
    clock.moveTo(request.epochMillis);
    requests++;
    firstMillis = Math.min(firstMillis, request.epochMillis);
    lastMillis = Math.max(lastMillis, request.epochMillis);
    LoggedExchange exchange = new LoggedExchange(request);
    RuleVerdicts verdicts;
    try {
      verdicts = decider.decide(exchange, ruleSet, DecisionPoint.FIRST_ENTRY, null);
    } catch (RuntimeException e) {
      // the agent lets such a request through and logs it; here it is counted and shown
      failedRequests++;
      if (firstFailure == null) {
        firstFailure = request.source + ": line " + request.lineNumber + ": " + e;
      }
      return;
    }
    if (verdicts != null) {
      if (verdicts.refused()) {
        verdicts.releaseHeld(); // as the agent ends a request it refused
        refusedRequests++;
      } else {
        // the logged status settles count-when as the response's status does in the agent
        verdicts.requestEnded(exchange.responseStatus(false), exchange::responseHeader);
      }
      if (verdicts.wouldRefuse() != null) {
        shadowRefusedRequests++;
      }
      record(verdicts, exchange);
    }
    countUndecided(verdicts, exchange);
  }

  private void record(RuleVerdicts verdicts, LoggedExchange exchange) {
    List<RuleVerdicts.Entry> entries = verdicts.entries();
    long nowNanos = clock.nowNanos();
    long nowMillis = clock.nowMillis();
    int i = 0;
    while (i < entries.size()) {
      // the entries of one rule (one per budget) are next to each other
      Rule owner = entries.get(i).rule.owner();
      int end = i;
      boolean refused = false;
      while (end < entries.size() && entries.get(end).rule.owner() == owner) {
        refused |= !entries.get(end).verdict.allowed;
        end++;
      }
      RuleVerdicts.Entry first = entries.get(i);
      RuleTally tally = tallyOfRule.get(owner);
      if (tally != null) {
        KeyTally key = tally.record(first.key, refused, nowMillis);
        if (refused && key != null
            && key.refusedTelling(nowNanos, toldSeconds(verdicts, entries, i, end))) {
          tally.earlyRetries++;
        }
        // limits needed count what the rule counts: with count-when, only the statuses it lists
        if (key != null && tally.rule.counts(exchange.responseStatus(false))) {
          // every budget the request counts against, also those a penalty box did not ask
          for (Rule budget : owner.budgetsFor(exchange)) {
            int b = tally.rule.budgetIndex(budget);
            if (b >= 0) {
              key.addToPeak(b, nowNanos, first.cost, tally.rule.budgets.get(b).periodNanos);
            }
          }
        }
      }
      i = end;
    }
  }

  /**
   * The {@code Retry-After} a refusal by the rule of {@code entries[from, to)} gives, in seconds:
   * the request's, as the agent answers it, when an enforcing rule refused it; else (a shadow
   * rule's would-refuse) the longest wait among the rule's limits that refused.
   */
  private static long toldSeconds(
      RuleVerdicts verdicts, List<RuleVerdicts.Entry> entries, int from, int to) {
    long wait = verdicts.refusedBy() == null ? 0 : verdicts.refusedBy().verdict.retryAfterNanos;
    for (int j = from; j < to; j++) {
      if (!entries.get(j).verdict.allowed) {
        wait = Math.max(wait, entries.get(j).verdict.retryAfterNanos);
      }
    }
    return RefusalResponse.retryAfterSeconds(wait);
  }

  /**
   * Counts the requests that a rule's paths and methods match but that it did not decide: it
   * needs a route template, or the request lacked its key (or its allowlist exempted it).
   */
  private void countUndecided(RuleVerdicts verdicts, LoggedExchange exchange) {
    String path = null;
    for (RuleTally tally : watched) {
      Rule rule = tally.rule.rule;
      if (verdicts != null && decided(verdicts, rule)) {
        continue;
      }
      if (path == null) {
        path = PathNormalizer.normalize(exchange.rawPath());
      }
      String method = exchange.method();
      if (rule.matches(method, method, path)
          && rule.matchesHostAndHeaders(exchange)
          && !rule.skips(exchange, method, method, path)) {
        if (tally.rule.replayability == ReplayedRule.Replayability.NEEDS_ROUTE) {
          tally.unreplayable++;
        } else {
          tally.uncounted++;
        }
      }
    }
  }

  private static boolean decided(RuleVerdicts verdicts, Rule rule) {
    List<RuleVerdicts.Entry> entries = verdicts.entries();
    for (int i = 0, n = entries.size(); i < n; i++) {
      if (entries.get(i).rule.owner() == rule) {
        return true;
      }
    }
    return false;
  }

  /** What the replay found so far, each rule's top {@code top} refused keys listed. */
  public ReplayReport report(int top, UnparsedLines unparsed) {
    return report(top, unparsed, Collections.<String>emptyList());
  }

  /** As above, with what the readers said of the logs. */
  public ReplayReport report(int top, UnparsedLines unparsed, List<String> readerNotes) {
    List<String> notes = new ArrayList<>(readerNotes);
    if (failedRequests > 0) {
      notes.add("The engine failed on " + Figures.count(failedRequests) + " request"
          + (failedRequests == 1 ? "" : "s") + " (the agent would have let "
          + (failedRequests == 1 ? "it" : "them") + " through); the first: " + firstFailure);
    }
    List<RuleReport> reports = new ArrayList<>(tallies.length);
    for (RuleTally tally : tallies) {
      reports.add(new RuleReport(tally, top));
    }
    return new ReplayReport(
        rulesSource,
        fileSaidRedis,
        requests,
        refusedRequests,
        shadowRefusedRequests,
        requests == 0 ? 0 : firstMillis,
        requests == 0 ? 0 : lastMillis,
        clock.stepsBack(),
        clock.longestStepBackMillis(),
        unparsed == null ? new UnparsedLines() : unparsed,
        notes,
        reports);
  }

  List<ReplayedRule> rules() {
    return rules;
  }
}
