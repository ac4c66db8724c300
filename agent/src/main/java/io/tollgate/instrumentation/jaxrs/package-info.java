/**
 * What the JAX-RS modules share: a refusal as the implementation's own {@code Response}, and the
 * exchange of a resource served on a servlet request.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}.
 */
package io.tollgate.instrumentation.jaxrs;
