package io.tollgate.outbound;

import io.tollgate.logging.RateLimitedLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The outbound rules in force, as the client modules call them ({@link OutboundLimiter}): finds
 * the rules a call matches, and has each decide it on the calling thread, in file order. Fails
 * open: whatever goes wrong in the agent, the call is sent as it would be without it (and that is
 * logged, at most once a minute).
 */
public final class OutboundGate implements OutboundLimiter {

  /** No outbound rules. */
  public static final OutboundGate EMPTY = new OutboundGate(Collections.emptyList());

  private static final RateLimitedLog FAILURES = new RateLimitedLog(60_000);

  private final OutboundRule[] rules;

  OutboundGate(List<OutboundRule> rules) {
    this.rules = rules.toArray(new OutboundRule[0]);
  }

  @Override
  public boolean active() {
    return rules.length > 0;
  }

  /** The rules in force, by name, in file order (shadow rules marked), for the log. */
  public List<String> names() {
    List<String> names = new ArrayList<>();
    for (OutboundRule rule : rules) {
      names.add(rule.name() + (rule.shadow() ? " (shadow)" : ""));
    }
    return names;
  }

  /** Each rule in force, in file order, as {@code status} shows it. */
  public List<OutboundRuleState> states() {
    long now = System.nanoTime();
    List<OutboundRuleState> states = new ArrayList<>();
    for (OutboundRule rule : rules) {
      states.add(rule.state(now));
    }
    return states;
  }

  OutboundRule find(String name) {
    for (OutboundRule rule : rules) {
      if (rule.name().equals(name)) {
        return rule;
      }
    }
    return null;
  }

  @Override
  public OutboundDecision beforeSend(OutboundCall call) {
    try {
      long start = System.nanoTime();
      for (OutboundRule rule : rules) {
        if (rule.matches(call)) {
          OutboundDecision decision = rule.decide(call, rule.keyOf(call), start);
          if (!decision.send()) {
            return decision;
          }
        }
      }
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      FAILURES.warn("outbound-decide", () -> "an outbound call was sent without its limits:"
          + " the agent failed to decide it (" + e + "); further failures within a minute are"
          + " not logged");
    }
    return OutboundDecision.SEND;
  }

  @Override
  public void afterResponse(OutboundCall call, int status, Function<String, String> header) {
    try {
      for (OutboundRule rule : rules) {
        if (rule.matches(call)) {
          rule.answered(call, rule.keyOf(call), status, header);
        }
      }
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      FAILURES.warn("outbound-answer", () -> "a partner's answer was not read by the outbound"
          + " rules (" + e + "); further failures within a minute are not logged");
    }
  }
}
