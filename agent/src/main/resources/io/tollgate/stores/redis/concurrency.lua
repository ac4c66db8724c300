-- Tollgate concurrency: Concurrency.decide and Concurrency.release
-- (io.tollgate.limiters.Concurrency), with leases.
--
-- KEYS[1]   a sorted set of the permits held: one member per unit, PERMIT:i for i = 1..cost,
--           scored by the Redis time (ms) at which its lease ends
-- ARGV[1]   decide | release
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost
-- ARGV[4]   limit
-- ARGV[5]   lease in milliseconds (also the PEXPIRE of the key on every write)
-- ARGV[6]   PERMIT: the permit's id, unique across instances
--
-- A permit whose holder never gives it back (the instance died, Redis did not answer the release)
-- is forgotten when its lease ends: ZREMRANGEBYSCORE on every call. So the permits in flight are
-- Concurrency.State.inFlight less the expired ones.
--
-- decide returns {allowed (1 or 0), remaining}; retry-after and reset are fixed (Java side).
-- release returns {1}.

local op = ARGV[1]
local cost = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local lease = tonumber(ARGV[5])
local permit = ARGV[6]
local sec, ns = read_now(ARGV[2])
local now_ms = sec * 1000 + math.floor(ns / 1000000)

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now_ms))

-- The members of this permit, from..to, in batches (Lua's unpack has a stack limit).
local function members(from, to, with_score)
  local list = {}
  for i = from, to do
    if with_score then list[#list + 1] = with_score end
    list[#list + 1] = permit .. ':' .. i
  end
  return list
end

if op == 'release' then
  local i = 1
  while i <= cost do
    local last = math.min(cost, i + 999)
    redis.call('ZREM', KEYS[1], unpack(members(i, last)))
    i = last + 1
  end
  return {1}
end

local in_flight = redis.call('ZCARD', KEYS[1])
local free = limit - in_flight
if cost <= free then
  local expiry = string.format('%d', now_ms + lease)
  local i = 1
  while i <= cost do
    local last = math.min(cost, i + 999)
    redis.call('ZADD', KEYS[1], unpack(members(i, last, expiry)))
    i = last + 1
  end
  if cost > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
  return {1, limit - in_flight - cost}
else
  return {0, free}
end
