/**
 * The servlet module ({@code javax.servlet} and {@code jakarta.servlet}): the first {@code
 * Servlet.service} or {@code Filter.doFilter} on a request decides it, writes a refusal to the
 * response, and the container request's body reads wait for rules keyed by a form field.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}.
 */
package io.tollgate.instrumentation.servlet;
