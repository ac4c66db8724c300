/**
 * Rules with {@code backend: redis}: state shared by every agent through Redis.
 *
 * <ul>
 *   <li>{@link io.tollgate.stores.redis.RedisConnectionSettings}: URI ({@code redis://},
 *       {@code rediss://}, {@code user:password@}, {@code redis-sentinel://}) or cluster seeds, and
 *       the per-decision timeout (50 ms by default).
 *   <li>{@link io.tollgate.stores.redis.RedisBackend}: one Lettuce connection per agent; every call
 *       bounded by the timeout, commands rejected (not queued) while disconnected, a bounded request
 *       queue, a {@link io.tollgate.stores.redis.CircuitBreaker}, {@code EVALSHA} with one
 *       {@code EVAL} on {@code NOSCRIPT} and no other retry.
 *   <li>{@link io.tollgate.stores.redis.RedisAlgorithmStore}: one store per algorithm, each one
 *       Lua script that mirrors the local algorithm's {@code decide} and {@code adjust} (and
 *       {@code release}) on Redis {@code TIME}, with keys from {@link
 *       io.tollgate.stores.redis.RedisKeys}: {@link io.tollgate.stores.redis.RedisGcraStore}
 *       ({@code gcra.lua}: the token bucket and gcra), {@link
 *       io.tollgate.stores.redis.RedisPeriodCountStore} (fixed window and sliding log), {@link
 *       io.tollgate.stores.redis.RedisSlidingWindowStore}, {@link
 *       io.tollgate.stores.redis.RedisConcurrencyStore} (leased permits) and {@link
 *       io.tollgate.stores.redis.RedisCalendarStore}; the scripts share {@code common.lua} (the
 *       clock, exact integer helpers below 2^53).
 *   <li>{@link io.tollgate.stores.redis.FailurePolicyStore}: the rule's {@code on-failure}
 *       ({@link io.tollgate.config.OnFailure}) when Redis cannot answer, reporting who decided
 *       as a {@link io.tollgate.stores.redis.DecisionSource}; {@code local} divides the limit by the
 *       live instances counted by {@link io.tollgate.stores.redis.InstanceRegistry}; a late reply
 *       is decided by the rule's local share within what Redis has not given away ({@link
 *       io.tollgate.stores.redis.LateReplyLedger}).
 *   <li>{@link io.tollgate.stores.redis.RefusalCacheStore} ({@code refusal-cache: true}): between
 *       the two, refuses a key that Redis refused, in this process, until the refusal's
 *       Retry-After, so a flooded key costs one round trip per refusal period.
 * </ul>
 *
 * <p>Part of the {@code stores} layer: may use {@code limiters}, {@code config}, {@code logging}.
 */
package io.tollgate.stores.redis;
