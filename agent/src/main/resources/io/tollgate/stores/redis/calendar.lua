-- Tollgate calendar quota: CalendarQuota.decide and CalendarQuota.adjust
-- (io.tollgate.limiters.CalendarQuota), line for line. Lua has no calendar: the caller computes,
-- with java.time, the window around its own clock and the windows on either side, and the script
-- picks the one Redis TIME falls in. If it falls in none (the clocks differ by more than a window),
-- the script says so with Redis's time, and the caller computes the windows around that.
--
-- KEYS[1]   a hash: w = the window's start (decimal epoch nanoseconds), n = the units counted in it
-- ARGV[1]   decide | adjust
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust)
-- ARGV[4]   limit
-- ARGV[5..8] window bounds, decimal epoch nanoseconds: the previous window's start, the current
--           window's start, its end (the next window's start), the next window's end
-- ARGV[9]   milliseconds to PEXPIRE the key with on every write (idleNanosUntilFresh)
--
-- decide returns {allowed (1 or 0), remaining, retry (0: none, 1: until the next window, 2: the
-- window's length), window (0, 1 or 2: which of the three), untilNextSeconds, untilNextNanos};
-- adjust returns {1}. Either returns {-2, nowSeconds, nowNanos} when Redis TIME is outside the
-- three windows. Times are (seconds, nanoseconds) pairs: a year of nanoseconds passes 2^53.

local op = ARGV[1]
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local ttl_ms = ARGV[9]
local now_s, now_n = read_now(ARGV[2])

local function before(s, n, bound)
  local bs, bn = split_ns(bound)
  return s < bs or (s == bs and n < bn)
end

if before(now_s, now_n, ARGV[5]) or not before(now_s, now_n, ARGV[8]) then
  return {-2, now_s, now_n}
end
local index = 2
if before(now_s, now_n, ARGV[6]) then
  index = 0
elseif before(now_s, now_n, ARGV[7]) then
  index = 1
end
local window = ARGV[5 + index]
local end_s, end_n = split_ns(ARGV[6 + index])
local until_s = end_s - now_s
local until_n = end_n - now_n
if until_n < 0 then
  until_n = until_n + 1000000000
  until_s = until_s - 1
end

local state = redis.call('HMGET', KEYS[1], 'w', 'n')
-- A count above the limit (a reload lowered it) counts as the limit, as CalendarQuota.inherit.
if state[2] and tonumber(state[2]) > limit then state[2] = string.format('%d', limit) end

if op == 'adjust' then
  -- A request that began in an earlier window is not corrected.
  if state[1] == window then
    local count = tonumber(state[2]) + amount
    if count > limit then count = limit end
    if count < 0 then count = 0 end
    redis.call('HSET', KEYS[1], 'n', string.format('%d', count))
    redis.call('PEXPIRE', KEYS[1], ttl_ms)
  end
  return {1}
end

local count = 0
if state[1] == window then
  count = tonumber(state[2])
else
  -- A new window: its count starts from zero (written even when refused, as the local state is).
  redis.call('HSET', KEYS[1], 'w', window, 'n', '0')
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

if amount > limit then
  return {0, limit - count, 2, index, until_s, until_n}
elseif amount <= limit - count then
  count = count + amount
  redis.call('HSET', KEYS[1], 'w', window, 'n', string.format('%d', count))
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
  return {1, limit - count, 0, index, until_s, until_n}
else
  return {0, limit - count, 1, index, until_s, until_n}
end
