package io.tollgate.diagnostics;

import io.tollgate.logging.AgentLog;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Notices a rule whose key most matching requests lack (an API key header the clients do not
 * send, a cookie the app never sets): such requests are not counted by the rule, so it protects
 * less than its author thinks. Logs a warning once per rule; never changes a decision.
 */
public final class MissingKeyAdvisor {

  static final long MIN_REQUESTS = 100;

  private final String rule;
  private final String key;
  private final boolean hasFallback;
  private final LongAdder matched = new LongAdder();
  private final LongAdder missing = new LongAdder();
  private final AtomicBoolean warned = new AtomicBoolean();

  public MissingKeyAdvisor(String rule, String key, boolean hasFallback) {
    this.rule = rule;
    this.key = key;
    this.hasFallback = hasFallback;
  }

  /** One matching request, with or without its key. */
  public void observe(boolean keyPresent) {
    if (warned.get()) {
      return;
    }
    matched.increment();
    if (!keyPresent) {
      missing.increment();
    }
    // Summing the counters walks their cells: do it on about one request in 64, not on each.
    if (ThreadLocalRandom.current().nextInt(64) != 0) {
      return;
    }
    long seen = matched.sum();
    if (seen >= MIN_REQUESTS) {
      long lacking = missing.sum();
      if (lacking * 10 >= seen * 9 && warned.compareAndSet(false, true)) {
        AgentLog.warn("rule '" + rule + "': " + lacking + " of " + seen + " matching requests had"
            + " no " + key + "; "
            + (hasFallback
                ? "they are counted by the rule's key-fallback instead."
                : key.contains("principal")
                    ? "requests without an authenticated user are not limited by this rule; to"
                        + " count them too, set key-fallback (for example key-fallback: ip)."
                    : "they are not limited by this rule. Check the key's name, or set"
                        + " key-fallback (for example key-fallback: ip)."));
      }
    }
  }
}
