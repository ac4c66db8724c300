/**
 * The Spring MVC module: {@code HandlerAdapter.handle}, where the route template is known,
 * decides the rules on routes.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation} and {@code
 * instrumentation.servlet}.
 */
package io.tollgate.instrumentation.spring;
