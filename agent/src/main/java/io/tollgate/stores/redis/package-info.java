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
 *   <li>{@link io.tollgate.stores.redis.RedisLimiterStore}: the token bucket as one Lua script
 *       ({@code token-bucket.lua}) that mirrors {@link io.tollgate.limiters.TokenBucket#decide},
 *       on Redis {@code TIME}, with keys from {@link io.tollgate.stores.redis.RedisKeys}.
 *   <li>{@link io.tollgate.stores.redis.FailurePolicyStore}: the rule's {@code on-failure}
 *       ({@link io.tollgate.stores.redis.OnFailure}) when Redis cannot answer, reporting who decided
 *       as a {@link io.tollgate.stores.redis.DecisionSource}; {@code local} divides the limit by the
 *       live instances counted by {@link io.tollgate.stores.redis.InstanceRegistry}.
 *   <li>{@link io.tollgate.stores.redis.RefusalCacheStore} ({@code refusal-cache: true}): between
 *       the two, refuses a key that Redis refused, in this process, until the refusal's
 *       Retry-After, so a flooded key costs one round trip per refusal period.
 * </ul>
 *
 * <p>Only the token bucket has a script so far; the other algorithms run on {@code backend: local}.
 */
package io.tollgate.stores.redis;
