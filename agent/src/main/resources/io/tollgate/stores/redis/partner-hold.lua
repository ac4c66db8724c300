-- Tollgate partner hold: a wait a partner asked of one outbound rule's client key (a 429 or 503
-- with Retry-After, or RateLimit with r=0), kept on Redis so that every instance holds the calls
-- that one instance was asked to hold. budgets.lua reads it (its KEYS[2]) in the same call that
-- decides the rule's budgets: no round trip more per call.
--
-- KEYS[1]   a hash (RedisKeys.partnerHoldKey): until (decimal epoch nanoseconds, Redis TIME) and
--           answer (what the partner answered, for the instances' status)
-- ARGV[1]   the wait in nanoseconds from now (1 .. 2^52; the rule's max-honoured-wait applied)
-- ARGV[2]   the answer, as the instance that learnt it describes it
-- ARGV[3]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
--
-- A wait that ends before the one already there changes nothing: the later end holds. The hash
-- expires when the wait ends. Returns {1, leftNanos} when this write began the hold (none was in
-- force), {0, leftNanos} when it extended or met one in force; leftNanos is the hold's, from now.

local wait = tonumber(ARGV[1])
local now_s, now_ns = read_now(ARGV[3])
local end_s, end_ns = divmod(wait, 1000000000)
end_s = end_s + now_s
end_ns = end_ns + now_ns
if end_ns >= 1000000000 then
  end_ns = end_ns - 1000000000
  end_s = end_s + 1
end

local before = redis.call('HGET', KEYS[1], 'until')
local began = 1
if before then
  local b_s, b_ns = split_ns(before)
  if b_s > now_s or (b_s == now_s and b_ns > now_ns) then
    began = 0
    if b_s > end_s or (b_s == end_s and b_ns >= end_ns) then
      return {0, (b_s - now_s) * 1000000000 + (b_ns - now_ns)}
    end
  end
end
redis.call('HSET', KEYS[1], 'until', join_ns(end_s, end_ns), 'answer', ARGV[2])
redis.call('PEXPIRE', KEYS[1], string.format('%d', math.floor(wait / 1000000) + 1))
return {began, wait}
