package io.tollgate.engine;

import io.tollgate.http.HttpExchange;
import io.tollgate.logging.RateLimitedLog;
import io.tollgate.rules.Rule;
import java.util.concurrent.TimeUnit;

/**
 * The most time the agent may hold one request, all its waits together: the wait for the agent's
 * start ({@code EngineReadiness}, at most 30 s), its decisions (a shared store answers within its
 * {@code timeout}, per rule), and pacing ({@code max-delay}, at most 10 s). Each is bounded on its
 * own; their sum is bounded here, so that a slow store, several rules and pacing together never
 * keep a server thread longer than this: past it, the rules left are not decided (the request
 * passes them) and a pacing delay is cut to what is left.
 */
final class RequestHold {

  /** {@value #MAX_SECONDS} seconds in all. */
  static final long MAX_SECONDS = 30;

  static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(MAX_SECONDS);

  private static final RateLimitedLog LOG = new RateLimitedLog(60_000);

  private RequestHold() {}

  /** The {@code System.nanoTime()} past which a request held {@code heldNanos} so far is over. */
  static long deadline(long nowNanos, long heldNanos) {
    return nowNanos + (MAX_NANOS - heldNanos);
  }

  /** A pacing delay, cut to what is left of the hold for a request held {@code heldNanos}. */
  static long pacing(long delayNanos, long heldNanos) {
    return Math.max(0, Math.min(delayNanos, MAX_NANOS - heldNanos));
  }

  static void heldTooLong(Rule rule, HttpExchange exchange) {
    LOG.warn("held-too-long", () -> "a request (" + exchange.method() + " " + exchange.rawPath()
        + ") has been held by the agent for " + MAX_SECONDS + " s (start-up wait, decisions,"
        + " pacing): rule '" + rule.name() + "' and any after it are not applied to it, it"
        + " passes them; is the shared store slow?");
  }
}
