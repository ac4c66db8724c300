-- Tollgate instance heartbeat: how many agents share this Redis.
-- KEYS[1]  a sorted set: member = instance id, score = Redis time (ms) of its last heartbeat
-- ARGV[1]  this instance's id
-- ARGV[2]  milliseconds after which a silent instance no longer counts
-- ARGV[3]  "1" to leave (on shutdown) instead of announcing
-- Returns the number of live instances (this one included when announcing).
if redis.replicate_commands then
  pcall(redis.replicate_commands)
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
if ARGV[3] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('(%d', now - ttl))
redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl * 2))
return redis.call('ZCARD', KEYS[1])
