/**
 * The outbound rules' engine: paces the application's own calls to other services ({@link
 * io.tollgate.outbound.OutboundLimiter}), knowing no HTTP client library.
 *
 * <p>May use: {@code config}, {@code diagnostics}, {@code keys}, {@code limiters}, {@code logging},
 * {@code rules}, {@code stores}.
 */
package io.tollgate.outbound;
