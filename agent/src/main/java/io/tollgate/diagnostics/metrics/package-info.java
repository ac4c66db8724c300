/**
 * The agent's counters, per rule ({@link io.tollgate.diagnostics.metrics.RuleMetrics}) and in all
 * ({@link io.tollgate.diagnostics.metrics.TollgateMetrics}), the heaviest and the earliest-retrying
 * keys, and their exporters: JMX ({@link io.tollgate.diagnostics.metrics.JmxExporter}) and the
 * Prometheus text format ({@link io.tollgate.diagnostics.metrics.PrometheusExporter}).
 *
 * <p>Part of the {@code diagnostics} layer: may use what it may.
 */
package io.tollgate.diagnostics.metrics;
