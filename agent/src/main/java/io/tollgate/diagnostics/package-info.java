/**
 * What tells an operator how the agent is doing, above the layers it looks at: the line per
 * refused request ({@link io.tollgate.diagnostics.RefusalLog}) and per retry storm ({@link
 * io.tollgate.diagnostics.EarlyRetryLog}); the advisors that spot a setup mistake from the
 * traffic ({@link io.tollgate.diagnostics.ProxySetupAdvisor}, {@link
 * io.tollgate.diagnostics.MissingKeyAdvisor}, {@link io.tollgate.diagnostics.RouteRulesAdvisor});
 * which entry points were woven ({@link io.tollgate.diagnostics.EntryPoints}); the version; and,
 * in {@code diagnostics.metrics}, the counters and their JMX and Prometheus exporters.
 *
 * <p>The agent's log itself is in {@code logging}, so that the layers below can write to it.
 *
 * <p>May use: {@code bootstrap}, {@code config}, {@code keys}, {@code http}, {@code limiters},
 * {@code logging}.
 */
package io.tollgate.diagnostics;
