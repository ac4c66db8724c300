package io.tollgate.diagnostics;

import io.tollgate.logging.AgentLog;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Notices a rule whose key most matching requests lack (an API key header the clients do not
 * send, a cookie the app never sets): such requests are not counted by the rule, so it protects
 * less than its author thinks. Logs a warning once per rule; never changes a decision.
 *
 * <p>It looks at windows of {@value #MIN_REQUESTS} matching requests: every request of the first
 * window, then one request in {@value #SAMPLE_EVERY}, chosen by the thread's own random numbers, so
 * that the requests it does not look at write nothing that other threads share (it counted every
 * request before, for as long as the rule lived). A window in which nine in ten requests lacked the
 * key gives the warning.
 */
public final class MissingKeyAdvisor {

  static final long MIN_REQUESTS = 100;
  /** After the first window, one request in this many is looked at. */
  static final int SAMPLE_EVERY = 64;

  private final String rule;
  private final String key;
  private final boolean hasFallback;
  /** Guarded by this: the current window's requests, and those of them that lacked the key. */
  private long windowSeen;
  private long windowLacking;
  /** Set when the first window is over: from then on requests are sampled. */
  private volatile boolean sampling;
  private final AtomicBoolean warned = new AtomicBoolean();

  public MissingKeyAdvisor(String rule, String key, boolean hasFallback) {
    this.rule = rule;
    this.key = key;
    this.hasFallback = hasFallback;
  }

  /** One matching request, with or without its key. */
  public void observe(boolean keyPresent) {
    if (warned.get() || (sampling && ThreadLocalRandom.current().nextInt(SAMPLE_EVERY) != 0)) {
      return;
    }
    long[] lackingOfSeen = countInWindow(keyPresent);
    if (lackingOfSeen == null) {
      return;
    }
    long lacking = lackingOfSeen[0];
    long seen = lackingOfSeen[1];
    if (lacking * 10 >= seen * 9 && warned.compareAndSet(false, true)) {
      AgentLog.warn("rule '" + rule + "': " + lacking + " of " + seen + " matching requests"
          + (lackingOfSeen[2] == 1 ? " (sampled)" : "")
          + " had no " + key + "; "
          + (hasFallback
              ? "they are counted by the rule's key-fallback instead."
              : key.contains("principal")
                  ? "requests without an authenticated user are not limited by this rule; to"
                      + " count them too, set key-fallback (for example key-fallback: ip)."
                  : "they are not limited by this rule. Check the key's name, or set"
                      + " key-fallback (for example key-fallback: ip)."));
    }
  }

  /**
   * Counts one request in the current window; at the window's end, returns how many lacked the
   * key, how many there were, and 1 when they were sampled (0 for the first window), and starts
   * the next window. Null before.
   */
  private synchronized long[] countInWindow(boolean keyPresent) {
    windowSeen++;
    if (!keyPresent) {
      windowLacking++;
    }
    if (windowSeen < MIN_REQUESTS) {
      return null;
    }
    long[] window = {windowLacking, windowSeen, sampling ? 1 : 0};
    windowSeen = 0;
    windowLacking = 0;
    sampling = true;
    return window;
  }
}
