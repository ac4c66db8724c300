-- Tollgate fixed window: FixedWindow.decide and FixedWindow.adjust
-- (io.tollgate.limiters.FixedWindow), line for line.
--
-- KEYS[1]   a hash: w = the window's start (decimal epoch nanoseconds; it names the window as
--           FixedWindow.State.window does), n = the units counted in it (State.count)
-- ARGV[1]   decide | adjust
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust)
-- ARGV[4]   limit
-- ARGV[5]   period in nanoseconds (at most 2^52, checked by RedisPeriodCountStore)
-- ARGV[6]   milliseconds to PEXPIRE the key with on every write (the period, rounded up)
--
-- The hash's field p is the period it was written with. A count written with another period (a
-- reload changed the rule) is carried into this period's window that holds now, if its own
-- window holds now too, as FixedWindow.inherit does; a count above the limit counts as the limit.
--
-- decide returns {allowed (1 or 0), remaining, retryNanos (-1: cost above the limit, never
-- allowed), resetNanos}; adjust returns {1}. Every value is below 2^52 + limit.

local op = ARGV[1]
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local period = tonumber(ARGV[5])
local ttl_ms = ARGV[6]

local sec, ns = read_now(ARGV[2])
-- window = floorDiv(now, period), named by its start; untilNextWindow = period - floorMod(now, period).
local elapsed = floor_mod(sec, ns, 1000000000, period)
local window = join_ns(pair_minus(sec, ns, 1000000000, elapsed))
local until_next = period - elapsed

local state = redis.call('HMGET', KEYS[1], 'w', 'n', 'p')

if state[1] and state[3] and state[3] ~= ARGV[5] then
  local ws, wn = split_ns(state[1])
  local ps, pn = split_ns(state[3])
  local end_s, end_n = ws + ps, wn + pn
  if end_n >= 1000000000 then
    end_n = end_n - 1000000000
    end_s = end_s + 1
  end
  local was = tonumber(state[2]) or 0
  if was > 0 and (sec < end_s or (sec == end_s and ns < end_n)) then
    if was > limit then was = limit end
    local n = string.format('%d', was)
    redis.call('HSET', KEYS[1], 'w', window, 'n', n, 'p', ARGV[5])
    redis.call('PEXPIRE', KEYS[1], ttl_ms)
    state = {window, n, ARGV[5]}
  else
    redis.call('DEL', KEYS[1])
    state = {false, false, false}
  end
end
if state[2] and tonumber(state[2]) > limit then state[2] = string.format('%d', limit) end

if op == 'adjust' then
  -- A request that began in an earlier window is not corrected: that window is over.
  if state[1] == window then
    local count = tonumber(state[2]) + amount
    if count > limit then count = limit end
    if count < 0 then count = 0 end
    redis.call('HSET', KEYS[1], 'n', string.format('%d', count), 'p', ARGV[5])
    redis.call('PEXPIRE', KEYS[1], ttl_ms)
  end
  return {1}
end

local count = 0
if state[1] == window then
  count = tonumber(state[2])
else
  -- A new window: its count starts from zero (written even when refused, as the local state is).
  redis.call('HSET', KEYS[1], 'w', window, 'n', '0', 'p', ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

if amount > limit then
  return {0, limit - count, -1, until_next}
elseif amount <= limit - count then
  count = count + amount
  redis.call('HSET', KEYS[1], 'w', window, 'n', string.format('%d', count), 'p', ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
  return {1, limit - count, 0, until_next}
else
  return {0, limit - count, until_next, until_next}
end
