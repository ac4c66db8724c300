/**
 * What the containers' own request entries share: the request decided as the outermost entry,
 * through the servlet exchange, before the container looks for a filter or servlet.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation} and {@code
 * instrumentation.servlet}.
 */
package io.tollgate.instrumentation.container;
