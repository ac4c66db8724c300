package io.tollgate.outbound;

import io.tollgate.config.Durations;
import io.tollgate.config.OnLimit;
import io.tollgate.config.OutboundRuleConfig;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.diagnostics.metrics.OutboundMetrics;
import io.tollgate.diagnostics.metrics.OutboundRuleMetrics;
import io.tollgate.limiters.LimitSpec;
import io.tollgate.limiters.Verdict;
import io.tollgate.stores.LimiterStore;
import java.util.concurrent.TimeUnit;

/**
 * One outbound rule in force: which calls it matches, their key, the stores of its budgets (the
 * same stores, local or on Redis, as inbound rules), the partner's waits it has learnt, and how a
 * call over the limit is paced on its own thread, up to the rule's {@code max-wait}, or failed.
 */
final class OutboundRule {

  /** Refusal lines: one per rule per 10 s, so that a burst of failed calls is one line. */
  private static final RateLimitedLog LOG = new RateLimitedLog(10_000);
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  final OutboundRuleConfig config;
  final String[] budgetFingerprints;
  final LimiterStore[] budgets;
  final PartnerHolds holds;
  private final OutboundMatch match;
  private final OutboundKey key;
  private final boolean shadow;
  private final OutboundRuleMetrics metrics;
  /**
   * How late after its turn a paced call may still go out: the shortest interval between two
   * calls among the rule's limits (a limit of 6 a second: 167 ms).
   */
  private final long lateTurnNanos;

  OutboundRule(OutboundRuleConfig config, boolean shadow, LimiterStore[] budgets,
      String[] budgetFingerprints, PartnerHolds holds) {
    this.config = config;
    this.shadow = shadow;
    this.budgets = budgets;
    this.budgetFingerprints = budgetFingerprints;
    this.holds = holds;
    this.match = new OutboundMatch(config);
    this.key = OutboundKey.of(config.key());
    this.metrics = OutboundMetrics.forRule(config.name());
    long shortest = Long.MAX_VALUE;
    for (LimitSpec limit : config.limits()) {
      shortest = Math.min(shortest, limit.periodNanos() / Math.max(1, limit.limit()));
    }
    this.lateTurnNanos = shortest;
  }

  String name() {
    return config.name();
  }

  boolean shadow() {
    return shadow;
  }

  boolean matches(OutboundCall call) {
    return match.matches(call);
  }

  String keyOf(OutboundCall call) {
    return key.of(call);
  }

  /**
   * Decides {@code call} of {@code key}: waits (on this thread, until no later than the rule's
   * {@code max-wait} from {@code start}) for the partner's wait to end and for the call's turn,
   * then sends it, or fails it when it could not be sent in time. A call that may not wait
   * ({@link OutboundCall#mayWait}) is sent only when it has room at once.
   */
  OutboundDecision decide(OutboundCall call, String key, long start) {
    boolean mayWait = config.onLimit() == OnLimit.WAIT && !shadow && call.mayWait();
    long deadline = start + config.maxWaitNanos();
    Verdict verdict = new Verdict();
    boolean waited = false;
    while (true) {
      long now = System.nanoTime();
      long held = holds.heldUntil(key, now);
      if (held != 0) {
        if (shadow) {
          return wouldLimit(call, "the partner asked to wait " + seconds(held - now) + " s");
        }
        if (!mayWait || held - deadline > 0) {
          return fail(call, key, waited, held - now, start, "the partner asked to wait"
              + (config.onLimit() != OnLimit.WAIT || call.mayWait() ? ""
                  : " and its thread must not wait (" + Thread.currentThread().getName() + ")"));
        }
        waited = true;
        if (!Pause.until(held)) {
          return fail(call, key, waited, held - System.nanoTime(), start, "interrupted while waiting");
        }
        continue;
      }
      long retryAfter = decideBudgets(key, verdict, deadline);
      if (retryAfter == 0) {
        long delay = verdict.delayNanos;
        if (delay > 0) {
          if (shadow) {
            return wouldLimit(call, "it would have waited " + millis(delay) + " ms for its turn");
          }
          if (!call.mayWait()) {
            refund(key);
            return fail(call, key, waited, delay, start, "its turn is in " + millis(delay)
                + " ms and its thread must not wait (" + Thread.currentThread().getName() + ")");
          }
          long turn = System.nanoTime() + delay;
          if (turn - deadline > 0) {
            // A partner's wait took part of max-wait: the turn booked is too late; give it back.
            refund(key);
            return fail(call, key, waited, delay, start, "its turn comes after max-wait");
          }
          waited = true;
          if (!Pause.until(turn)) {
            refund(key);
            return fail(call, key, waited, 0, start, "interrupted while waiting its turn");
          }
          if (System.nanoTime() - turn > lateTurnNanos) {
            // The thread ran more than one interval after its turn (a host too busy to run it, a
            // long GC pause): the calls booked after it may be going out on time now, and those
            // woken with it at once, so that sending it would put several calls where the
            // partner expects one. It takes a new turn; the one it missed stays spent (given
            // back, it would be the turn at the end of the queue, which is already another
            // call's). Bounded by max-wait, like any wait.
            continue;
          }
        }
        metrics.sent(waited ? System.nanoTime() - start : 0);
        return OutboundDecision.SEND;
      }
      if (holds.heldUntil(key, System.nanoTime()) != 0) {
        continue; // the refusal was a partner's wait, found on Redis: held as such, above
      }
      if (shadow) {
        return wouldLimit(call, "it had no room for " + millis(retryAfter) + " ms");
      }
      long retryAt = System.nanoTime() + retryAfter;
      if (!mayWait || retryAt - deadline > 0) {
        return fail(call, key, waited, retryAfter, start, mayWait
            ? "no room within max-wait " + Durations.format(config.maxWaitNanos())
            : noRoomNow(call));
      }
      waited = true;
      if (!Pause.until(retryAt)) {
        return fail(call, key, waited, retryAfter, start, "interrupted while waiting its turn");
      }
    }
  }

  /**
   * Decides every budget of the rule for one call: 0 when all have room (with the pacing delay in
   * {@code verdict}), else the wait until the one without room has; what the others took is given
   * back then, so that a call not sent counts nowhere.
   */
  private long decideBudgets(String key, Verdict verdict, long deadline) {
    long delay = 0;
    for (int i = 0; i < budgets.length; i++) {
      budgets[i].decide(key, 1, verdict, deadline);
      if (!verdict.allowed) {
        long retryAfter = Math.max(1, verdict.retryAfterNanos);
        for (int j = 0; j < i; j++) {
          budgets[j].adjust(key, -1);
        }
        return retryAfter;
      }
      delay = Math.max(delay, verdict.delayNanos);
    }
    verdict.delayNanos = delay;
    return 0;
  }

  /** Gives back what a call not sent took of every budget. */
  private void refund(String key) {
    for (LimiterStore budget : budgets) {
      budget.adjust(key, -1);
    }
  }

  /** The partner answered a call of {@code key}: a 429 is counted, a wait it asks is honoured. */
  void answered(OutboundCall call, String key, int status,
      java.util.function.Function<String, String> header) {
    if (status == 429) {
      metrics.partner429();
    }
    if (!config.honourPartner()) {
      return;
    }
    long wait = PartnerWait.nanos(status, header, System.currentTimeMillis());
    if (wait > 0) {
      holds.hold(key, wait, System.nanoTime(), call.host() + ":" + call.port(), status, !shadow);
    }
  }

  /** The rule as {@code status} shows it, with the partner's waits in force at {@code now}. */
  OutboundRuleState state(long now) {
    StringBuilder limit = new StringBuilder();
    for (LimitSpec l : config.limits()) {
      limit.append(limit.length() == 0 ? "" : ", ").append(l.limit()).append('/')
          .append(Durations.format(l.periodNanos()));
    }
    return new OutboundRuleState(name(), config.algorithm().yamlName(), limit.toString(), shadow,
        config.onLimit().yamlName(), metrics, holds.inForce(now));
  }

  private OutboundDecision fail(OutboundCall call, String key, boolean waited,
      long retryAfterNanos, long start, String why) {
    metrics.failedFast(waited ? System.nanoTime() - start : 0);
    long retryAfter = Math.max(1, (retryAfterNanos + SECOND - 1) / SECOND);
    LOG.log("outbound-fail:" + name(), () -> "outbound rule '" + name() + "' failed "
        + call.method() + " " + call.host() + ":" + call.port() + call.path()
        + (key.isEmpty() ? "" : " (key '" + key + "')") + ": " + why + "; retry after "
        + retryAfter + " s (further failures of this rule within 10 s are counted, not logged)");
    return OutboundDecision.fail(name(), retryAfter);
  }

  /** Why a call without room now is not waited for. */
  private String noRoomNow(OutboundCall call) {
    return config.onLimit() != OnLimit.WAIT || call.mayWait()
        ? "no room now (on-limit: fail)"
        : "no room now and its thread must not wait (" + Thread.currentThread().getName() + ")";
  }

  private OutboundDecision wouldLimit(OutboundCall call, String why) {
    metrics.wouldLimit();
    metrics.sent(0);
    LOG.log("outbound-shadow:" + name(), () -> "outbound rule '" + name() + "' (shadow) would"
        + " have held " + call.method() + " " + call.host() + ":" + call.port() + call.path()
        + ": " + why + "; it went out at once");
    return OutboundDecision.SEND;
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  private static long seconds(long nanos) {
    return (nanos + SECOND - 1) / SECOND;
  }
}
