/**
 * {@code java -jar tollgate-agent.jar replay RULES.yaml LOG...}: feeds past access logs (read by
 * {@code replay.log}) through the engine as the agent would decide them live, and reports per rule
 * what would have been refused, for whom and when, as text and HTML ({@link
 * io.tollgate.replay.ReplayCommand}, {@link io.tollgate.replay.Replay}).
 *
 * <p>May use: {@code config}, {@code diagnostics}, {@code engine}, {@code http}, {@code keys},
 * {@code limiters}, {@code logging}, {@code rules}, {@code replay.log}.
 */
package io.tollgate.replay;
