/**
 * The Grizzly module: Jersey's Grizzly container, a server without the servlet API, whose request
 * knows the client's address, and whose end is when what the request held is given back.
 *
 * <p>A framework module: may use {@code bootstrap}, {@code diagnostics}, {@code engine}, {@code
 * http}, {@code logging}, {@code outbound}, {@code rules}, {@code instrumentation}.
 */
package io.tollgate.instrumentation.grizzly;
