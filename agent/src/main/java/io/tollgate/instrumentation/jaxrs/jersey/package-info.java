/**
 * The Jersey module: {@code ResourceMethodInvoker.apply} decides the rules on routes (and every
 * rule on Grizzly with no servlet container in front); a refusal is returned as Jersey's response.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation} and {@code
 * instrumentation.jaxrs}.
 */
package io.tollgate.instrumentation.jaxrs.jersey;
