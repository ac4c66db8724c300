/**
 * Jetty's own request entry: {@code Server.handle(HttpChannel)} (Jetty 9.4 to 11).
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}, {@code
 * instrumentation.container} and {@code instrumentation.servlet}.
 */
package io.tollgate.instrumentation.container.jetty;
