/**
 * Tomcat's own request entry: {@code StandardHostValve.invoke} (Tomcat 9 to 11).
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}, {@code
 * instrumentation.container} and {@code instrumentation.servlet}.
 */
package io.tollgate.instrumentation.container.tomcat;
