/**
 * The RESTEasy module (WildFly, JBoss EAP, Open Liberty): {@code
 * ResourceMethodInvoker.invokeOnTarget} decides the rules on routes.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}, {@code
 * instrumentation.jaxrs} and {@code instrumentation.servlet}.
 */
package io.tollgate.instrumentation.jaxrs.resteasy;
