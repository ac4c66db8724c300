-- Tollgate sliding log: SlidingLog.decide and SlidingLog.adjust (io.tollgate.limiters.SlidingLog),
-- line for line. The ring buffer is a list, oldest first: one entry (decimal epoch nanoseconds)
-- per unit allowed within the last period, at most limit (10,000) entries.
--
-- KEYS[1]   the list
-- ARGV[1]   decide | adjust
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust)
-- ARGV[4]   limit
-- ARGV[5]   period in nanoseconds (at most 2^52, checked by RedisPeriodCountStore)
-- ARGV[6]   milliseconds to PEXPIRE the key with on every write (the period, rounded up)
--
-- decide returns {allowed (1 or 0), remaining, retryNanos (-1: cost above the limit, never
-- allowed), resetNanos, nextUnitNanos (allowed only: until the oldest entry is a period old)};
-- adjust returns {1}.
--
-- Exact arithmetic: an entry's age (now - entry) is computed from the two (seconds, nanoseconds)
-- pairs; it is exact while under 2^53 ns (104 days) either way, and beyond that it only matters
-- that it is more than a period (or, with Redis's clock stepped far back, a period's wait at most).

local op = ARGV[1]
local amount = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local period = tonumber(ARGV[5])
local ttl_ms = ARGV[6]
local now_sec, now_ns = read_now(ARGV[2])
local now = join_ns(now_sec, now_ns)
local FAR = 8000000 -- seconds: more than 2^52 ns, less than 2^53

local function age(entry)
  local s, n = split_ns(entry)
  local ds = now_sec - s
  if ds > FAR then return 2 * period + 1 end
  if ds < -FAR then return -period end
  return ds * 1000000000 + (now_ns - n)
end

-- Forget the entries that are a whole period old.
local function forget()
  while true do
    local head = redis.call('LINDEX', KEYS[1], 0)
    if head and age(head) >= period then
      redis.call('LPOP', KEYS[1])
    else
      return
    end
  end
end

-- Logs n entries at now, in batches (Lua's unpack has a stack limit).
local function log(n)
  while n > 0 do
    local batch = n
    if batch > 1000 then batch = 1000 end
    local entries = {}
    for i = 1, batch do entries[i] = now end
    redis.call('RPUSH', KEYS[1], unpack(entries))
    n = n - batch
  end
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

-- Nanoseconds until the newest entry is a period old; 0 for an empty log.
local function reset(size)
  if size == 0 then return 0 end
  return period - age(redis.call('LINDEX', KEYS[1], -1))
end

-- A log longer than the limit (a reload lowered it) keeps its newest entries, as SlidingLog.inherit.
if redis.call('LLEN', KEYS[1]) > limit then
  redis.call('LTRIM', KEYS[1], -limit, -1)
end

if op == 'adjust' then
  if amount < 0 then
    -- A refund forgets the newest -delta entries.
    local keep = redis.call('LLEN', KEYS[1]) + amount
    if keep <= 0 then
      redis.call('DEL', KEYS[1])
    else
      redis.call('LTRIM', KEYS[1], 0, keep - 1)
    end
    return {1}
  end
  forget()
  local n = limit - redis.call('LLEN', KEYS[1])
  if amount < n then n = amount end
  if n > 0 then log(n) end
  return {1}
end

forget()
local size = redis.call('LLEN', KEYS[1])
local free = limit - size

if amount > limit then
  return {0, free, -1, reset(size)}
elseif amount <= free then
  log(amount)
  size = size + amount
  local next_unit = 0
  if size > 0 then next_unit = period - age(redis.call('LINDEX', KEYS[1], 0)) end
  return {1, limit - size, 0, reset(size), next_unit}
else
  -- The cost - free oldest entries must leave for cost units to fit: wait for the last of them.
  local leaving = redis.call('LINDEX', KEYS[1], amount - free - 1)
  return {0, free, period - age(leaving), reset(size)}
end
