/**
 * Rate-limit keys: client address resolution behind proxies ({@link io.tollgate.keys.ClientAddressResolver},
 * {@link io.tollgate.keys.TrustedProxies}, {@link io.tollgate.keys.Cidr}, {@link io.tollgate.keys.IpAddress}),
 * path canonicalisation ({@link io.tollgate.keys.PathNormalizer}), hashing of secret key material
 * ({@link io.tollgate.keys.KeyHash}) and unforgeable composite keys ({@link io.tollgate.keys.KeyParts}).
 *
 * <p>Pure Java with no servlet types: the engine passes strings. Nothing here resolves host names, and
 * nothing that reads request data throws on any input.
 *
 * <p>May use: {@code http} (the exchange whose values make a key), {@code logging}.
 */
package io.tollgate.keys;
