/**
 * The agent's own log, which every layer may write to: {@link io.tollgate.logging.AgentLog} (lines
 * starting with {@code [tollgate]} on standard error, or through {@code java.util.logging} where a
 * server captures standard error, see {@link io.tollgate.logging.ServerLogging}) and {@link
 * io.tollgate.logging.RateLimitedLog} (at most one line a minute per kind of failure, so that a
 * failing dependency cannot flood the log or slow the requests that write it).
 *
 * <p>Pure logging, at the bottom of the layers so that {@code limiters}, {@code http}, {@code keys}
 * and {@code config} can log too. What is logged about decisions (refusals, retry storms) and the
 * advisors stay in {@code diagnostics}.
 *
 * <p>May use: {@code bootstrap} (the sink that {@code attach} reads the start's lines from).
 */
package io.tollgate.logging;
