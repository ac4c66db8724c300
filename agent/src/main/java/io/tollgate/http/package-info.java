/**
 * The request as the engine sees it, whatever the framework: {@link io.tollgate.http.HttpExchange},
 * which each framework module implements; and what the engine sends back, with no framework type:
 * the {@code RateLimit} headers ({@link io.tollgate.http.RateLimitHeaders}), the refusal's headers
 * and default bodies ({@link io.tollgate.http.RefusalResponse}) and the rule's own body ({@link
 * io.tollgate.http.RefusalBody}), made into one value, {@link io.tollgate.http.RefusalMessage},
 * that each module writes with its own API: nothing here calls back into a module.
 *
 * <p>May use: {@code limiters} (the quota policy the headers describe), {@code logging}.
 */
package io.tollgate.http;
