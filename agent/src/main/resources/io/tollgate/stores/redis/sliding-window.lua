-- Tollgate sliding window: SlidingWindow.decide and SlidingWindow.adjust
-- (io.tollgate.limiters.SlidingWindow), line for line.
--
-- KEYS[1]   a hash: w = the current window's start (decimal, time units since the Unix epoch; it
--           names the window as SlidingWindow.State.window does), p = previous, c = current
-- ARGV[1]   decide | adjust
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust)
-- ARGV[4]   limit
-- ARGV[5]   period in time units (at most 2^52, checked by RedisSlidingWindowStore)
-- ARGV[6]   unitNanos: 1, 1000, 1000000 or 1000000000 (SlidingWindow.unitNanos())
-- ARGV[7]   milliseconds to PEXPIRE the key with on every write (two periods, rounded up)
--
-- The hash's field q names the period and unit it was written with (periodUnits:unitNanos). Counts
-- written with others (a reload changed the period) are carried over as SlidingWindow.inherit
-- does: what the old estimate still counted becomes this window's count, up to the limit.
--
-- decide returns {allowed (1 or 0), remaining, retryUnits (-1: cost above the limit, never
-- allowed), resetUnits (0: the estimate is zero now), subUnitNanos, nextUnitUnits (allowed only;
-- -1: nothing counted, nothing to come)}: the caller turns units into
-- (now + units) * unitNanos - nowNanos = units * unitNanos - subUnitNanos. adjust returns {1}.
--
-- Exact arithmetic: Java multiplies through by the period (previous * weight, up to limit *
-- period, which may pass 2^53); here those products are only ever divided again, by muldivmod,
-- whose remainders stay below the period. limit <= 2^52 and period <= 2^52 suffice.

local op = ARGV[1]
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local period = tonumber(ARGV[5])
local unit_nanos = tonumber(ARGV[6])
local ttl_ms = ARGV[7]

local U = 1000000000 / unit_nanos
local D = 0
if unit_nanos == 1 then D = 9 elseif unit_nanos == 1000 then D = 6 elseif unit_nanos == 1000000 then D = 3 end
local function join(hi, lo)
  if D == 0 then return string.format('%d', hi) end
  if hi == 0 then return string.format('%d', lo) end
  return string.format('%d%0' .. D .. 'd', hi, lo)
end

-- now = floorDiv(nowNanos, unitNanos) as (now_hi seconds, now_lo units); sub: nanoseconds past it.
local now_hi, now_ns = read_now(ARGV[2])
local now_lo, sub = divmod(now_ns, unit_nanos)
local elapsed = floor_mod(now_hi, now_lo, U, period)
local w_hi, w_lo = pair_minus(now_hi, now_lo, U, elapsed)
local window = join(w_hi, w_lo)
local before = join(pair_minus(w_hi, w_lo, U, period))

local params = ARGV[5] .. ':' .. ARGV[6]
local state = redis.call('HMGET', KEYS[1], 'w', 'p', 'c', 'q')

local function write(previous, current)
  redis.call('HSET', KEYS[1], 'w', window, 'p', string.format('%d', previous), 'c',
    string.format('%d', current), 'q', params)
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

if state[1] and state[4] and state[4] ~= params then
  local old_period, old_unit = string.match(state[4], '^(%d+):(%d+)$')
  old_period, old_unit = tonumber(old_period), tonumber(old_unit)
  local oU = 1000000000 / old_unit
  local oD = 0
  if old_unit == 1 then oD = 9 elseif old_unit == 1000 then oD = 6 elseif old_unit == 1000000 then oD = 3 end
  local function old_join(hi, lo)
    if oD == 0 then return string.format('%d', hi) end
    if hi == 0 then return string.format('%d', lo) end
    return string.format('%d%0' .. oD .. 'd', hi, lo)
  end
  local o_lo = math.floor(now_ns / old_unit)
  local o_elapsed = floor_mod(now_hi, o_lo, oU, old_period)
  local ow_hi, ow_lo = pair_minus(now_hi, o_lo, oU, o_elapsed)
  local used = 0
  if state[1] == old_join(ow_hi, ow_lo) then
    used = tonumber(state[2]) + tonumber(state[3])
  elseif state[1] == old_join(pair_minus(ow_hi, ow_lo, oU, old_period)) then
    used = tonumber(state[3])
  end
  if used > 0 then
    if used > limit then used = limit end
    write(0, used)
    state = {window, '0', string.format('%d', used), params}
  else
    redis.call('DEL', KEYS[1])
    state = {false, false, false, false}
  end
end

if op == 'adjust' then
  -- A request that began in an earlier window is not corrected.
  if state[1] == window then
    local current = tonumber(state[3]) + amount
    if current > limit then current = limit end
    if current < 0 then current = 0 end
    write(tonumber(state[2]), current)
  end
  return {1}
end

local previous, current
if state[1] == window then
  previous = tonumber(state[2])
  current = tonumber(state[3])
else
  if state[1] == before then
    previous = tonumber(state[3])
  else
    previous = 0
  end
  current = 0
  -- The window moved on: written even when refused, as the local state is.
  write(previous, current)
end
-- The previous window's weight, scaled by period: period - elapsed, in (0, period].
local weight = period - elapsed
-- ceil(previous * weight / period): the previous window's share of the estimate, in whole units.
local pq, pr = muldivmod(previous, weight, period)
local share = pq
if pr > 0 then share = share + 1 end

-- Whole units the estimate leaves free: floor((limit*period - previous*weight - current*period) / period).
local function remaining(cur)
  local free = limit - cur - share
  if free < 0 then return 0 end
  return free
end

-- Units until the estimate is zero (0: it is zero now).
local function reset(cur)
  if cur > 0 then return weight + period end
  if previous > 0 then return weight end
  return 0
end

if amount > limit then
  return {0, remaining(current), -1, reset(current), sub}
end
-- Allowed when previous * weight <= (limit - current - cost) * period.
-- Units from now until a request of n (at most the limit) fits, with cur counted in this window.
local function wait_for(n, cur)
  local fitting = limit - cur - n
  local pw, pwr = divmod(previous, period)
  if pwr > 0 then pw = pw + 1 end
  if previous > 0 and fitting > 0 and fitting >= pw then
    -- Later in this window: previous * (weight - wait) <= fitting * period.
    local q = muldivmod(fitting, period, previous)
    return weight - q
  elseif cur == 0 then
    -- In the next window, where previous = current = 0: at its start.
    return weight
  elseif limit - n >= cur then
    -- In the next window at its start: current * period <= (limit - cost) * period.
    return weight
  end
  -- In the next window, at elapsed e: current * (period - e) <= (limit - cost) * period.
  local largest = muldivmod(limit - n, period, cur)
  local late = period - largest
  if late < 0 then late = 0 end
  return weight + late
end

if amount <= limit - current and share <= limit - current - amount then
  current = current + amount
  write(previous, current)
  local left = remaining(current)
  -- One more unit is free when a request of left + 1 would fit (SlidingWindow.decide); -1: the
  -- estimate is empty, nothing is to come.
  local next_unit = -1
  if left < limit then next_unit = wait_for(left + 1, current) end
  return {1, left, 0, reset(current), sub, next_unit}
end

return {0, remaining(current), wait_for(amount, current), reset(current), sub}
