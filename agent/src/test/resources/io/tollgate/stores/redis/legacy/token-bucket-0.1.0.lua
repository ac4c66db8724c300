-- Tollgate token bucket: TokenBucket.decide (io.tollgate.limiters.TokenBucket), line for line.
--
-- KEYS[1]   the bucket: a hash with fields tat (decimal integer, time units since the Unix epoch)
--           and tatFraction (in 1/limit of a unit), exactly TokenBucket.State.
-- ARGV[1]   decide | adjust (TokenBucket.adjust with ARGV[3] as the delta: > 0 charges, < 0
--           refunds)
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust)
-- ARGV[4]   limit
-- ARGV[5]   burst
-- ARGV[6]   unitNanos: 1, 1000, 1000000 or 1000000000 (TokenBucket.unitNanos())
-- ARGV[7]   intervalWhole      = floor(periodUnits / limit)   (T in whole units)
-- ARGV[8]   intervalRemainder  = periodUnits mod limit         (the rest of T, over limit)
-- ARGV[9]   toleranceWhole     = floor(burst * periodUnits / limit)
-- ARGV[10]  toleranceFraction  = burst * periodUnits mod limit
--           (burstToleranceScaled = toleranceWhole * limit + toleranceFraction)
-- ARGV[11]  milliseconds to PEXPIRE the key with on every write (idleNanosUntilFresh, rounded up)
-- ARGV[12]  periodUnits        = the period in units
-- ARGV[13]  maxTokens          = floor(burstToleranceScaled / periodUnits) + 1
--
-- The hash's field p names the parameters it was written with (unit:periodUnits:limit:
-- toleranceWhole:toleranceFraction); a state written with others (a reload changed the rule) is
-- carried over first, as TokenBucket.inherit does: the tokens used stay used (common.lua's
-- carry_used), and written back at once, so that it is converted once.
--
-- Returns {allowed (1 or 0), remaining, retryUnits (-1: cost above burst, never allowed),
-- resetUnits, nextUnitUnits (allowed only: until the next token)}; the caller multiplies units by
-- unitNanos. adjust returns {1}.
--
-- Exact arithmetic on Lua numbers (doubles, exact integers up to 2^53). Java keeps every value as
-- one long; here the large ones are split so that nothing exceeds 2^53:
--  * absolute times (tat, now: up to ~1.8e18 ns) are kept as whole seconds plus units within
--    the second, parsed from and written back to the decimal string, never as one number;
--  * "scaled" quantities (units * limit + fraction, up to ~2^60 in Java) are kept as a pair
--    (whole units, fraction < limit) and compared lexicographically;
--  * what remains are differences from now in units, bounded by 2*burst*T + burst + 1 + 3e9, and
--    k * intervalRemainder < (burst + 2) * limit. RedisGcraStore refuses a rule for which either
--    bound exceeds 2^53.
-- Divisions are math.floor(a / b) with 0 <= a < 2^53 and b >= 1, which is exact in doubles.

local op = ARGV[1]
local cost = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local burst = tonumber(ARGV[5])
local unit_nanos = tonumber(ARGV[6])
local iw = tonumber(ARGV[7])
local ir = tonumber(ARGV[8])
local tol_whole = tonumber(ARGV[9])
local tol_frac = tonumber(ARGV[10])
local ttl_ms = ARGV[11]
local period_units = tonumber(ARGV[12])
local max_tokens = tonumber(ARGV[13])
local params = ARGV[6] .. ':' .. ARGV[12] .. ':' .. ARGV[4] .. ':' .. ARGV[9] .. ':' .. ARGV[10]

-- Units per second, and its decimal digits (the sub-second part of a tat string).
local U = 1000000000 / unit_nanos
local D = 0
if unit_nanos == 1 then D = 9 elseif unit_nanos == 1000 then D = 6 elseif unit_nanos == 1000000 then D = 3 end

-- now = floorDiv(nowNanos, unitNanos), as whole seconds now_hi plus units now_lo < U.
local now_hi, now_sub_ns = read_now(ARGV[2])
local now_lo = math.floor(now_sub_ns / unit_nanos)

local function split(s)
  if D == 0 then return tonumber(s), 0 end
  local n = #s
  if n <= D then return 0, tonumber(s) end
  return tonumber(string.sub(s, 1, n - D)), tonumber(string.sub(s, n - D + 1))
end

local function join(hi, lo)
  if D == 0 then return string.format('%d', hi) end
  if hi == 0 then return string.format('%d', lo) end
  return string.format('%d%0' .. D .. 'd', hi, lo)
end

-- Is k * T greater than (a + b/limit) units? Exact: k * T = k*iw + (k*ir)/limit.
local function exceeds(k, a, b)
  local fr = k * ir
  local w = k * iw + math.floor(fr / limit)
  local f = fr % limit
  return w > a or (w == a and f > b)
end

-- floor(((a * limit) + b) / periodUnits): whole tokens in a + b/limit units; 0 when negative.
local function whole_intervals(a, b)
  if a < 0 then return 0 end
  local k = math.floor((a + b / limit) / (iw + ir / limit))
  if k < 0 then k = 0 end
  if k > burst + 1 then k = burst + 1 end
  local guard = 0
  while k > 0 and exceeds(k, a, b) do
    k = k - 1
    guard = guard + 1
    if guard > 64 then error('tollgate: token estimate did not converge') end
  end
  while not exceeds(k + 1, a, b) do
    k = k + 1
    guard = guard + 1
    if guard > 64 then error('tollgate: token estimate did not converge') end
  end
  return k
end

-- Whole tokens in the bucket when tat = now + d (+ fraction).
local function tokens_left(d, frac)
  local a = tol_whole - d
  local b = tol_frac - frac
  if b < 0 then b = b + limit; a = a - 1 end
  return whole_intervals(a, b)
end

local state = redis.call('HMGET', KEYS[1], 'tat', 'tatFraction', 'p')

local function write_tat(d, frac)
  local lo = now_lo + d
  local hi = now_hi + math.floor(lo / U)
  lo = lo % U
  redis.call('HSET', KEYS[1], 'tat', join(hi, lo), 'tatFraction', string.format('%d', frac),
    'p', params)
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

if state[1] and state[3] and state[3] ~= params then
  local w, f = carry_used(state[3], state[1], state[2], now_hi, now_sub_ns, limit, period_units,
    tol_whole, tol_frac, max_tokens)
  if w then
    write_tat(w, f)
    local lo = now_lo + w
    local hi = now_hi + math.floor(lo / U)
    state = {join(hi, lo % U), string.format('%d', f), params}
  else
    redis.call('DEL', KEYS[1])
    state = {false, false, false}
  end
end

-- The bucket cannot be fuller than full: an old tat counts as now.
-- d = base - now in units; base_frac = baseFraction.
local d = 0
local base_frac = 0
if state[1] then
  local tat_hi, tat_lo = split(state[1])
  if tat_hi > now_hi or (tat_hi == now_hi and tat_lo >= now_lo) then
    base_frac = tonumber(state[2]) or 0
    local ds = tat_hi - now_hi
    if ds > tol_whole / U + 2 then
      d = tol_whole + 1
    else
      d = ds * U + (tat_lo - now_lo)
    end
    -- Never more than burst * T ahead (as written below), unless the Redis clock stepped back:
    -- then the bucket counts as empty rather than as far in the future.
    if d > tol_whole or (d == tol_whole and base_frac > tol_frac) then
      d = tol_whole
      base_frac = tol_frac
    end
  end
end

if op == 'adjust' then
  -- Moves tat by delta * T: forward at most until the bucket is empty, back never before now.
  -- A refund on a key Redis has forgotten (a full bucket) has nothing to give back.
  if cost == 0 or (cost < 0 and not state[1]) then return {1} end
  local units = math.abs(cost)
  if units > burst + 1 then units = burst + 1 end
  local fr = units * ir
  local sw = units * iw + math.floor(fr / limit)
  local sf = fr % limit
  local nw, nf
  if cost > 0 then
    nw = d + sw
    nf = base_frac + sf
    if nf >= limit then nf = nf - limit; nw = nw + 1 end
    if nw > tol_whole or (nw == tol_whole and nf > tol_frac) then
      nw = tol_whole
      nf = tol_frac
    end
    if nw < d or (nw == d and nf <= base_frac) then
      return {1} -- already empty: nothing more to take
    end
  else
    nw = d - sw
    nf = base_frac - sf
    if nf < 0 then nf = nf + limit; nw = nw - 1 end
    if nw < 0 then
      nw = 0
      nf = 0
    end
  end
  write_tat(nw, nf)
  return {1}
end

if cost > burst then
  -- More than the bucket can ever hold: never allowed, so say when the bucket is full again.
  local reset = d
  if base_frac > 0 then reset = reset + 1 end
  return {0, tokens_left(d, base_frac), -1, reset}
end

-- tat' = base + cost * T, kept exact as whole units plus a fraction over limit.
local fraction_sum = base_frac + cost * ir
local new_d = d + cost * iw + math.floor(fraction_sum / limit)
local new_frac = fraction_sum % limit

-- Allowed when tat' - now <= burst * T, compared as (whole, fraction) pairs.
if new_d < tol_whole or (new_d == tol_whole and new_frac <= tol_frac) then
  write_tat(new_d, new_frac)
  local a = tol_whole - new_d
  local b = tol_frac - new_frac
  if b < 0 then b = b + limit; a = a - 1 end
  local reset = new_d
  if new_frac > 0 then reset = reset + 1 end
  -- The next token: (k + 1) * T - (a + b/limit), rounded up (TokenBucket.decide's
  -- toNextTokenScaled).
  local k = whole_intervals(a, b)
  local fr = (k + 1) * ir
  local nw = (k + 1) * iw + math.floor(fr / limit) - a
  local nf = fr % limit - b
  if nf < 0 then nf = nf + limit; nw = nw - 1 end
  if nf > 0 then nw = nw + 1 end
  return {1, k, 0, reset, nw}
else
  local w = new_d - tol_whole
  local f = new_frac - tol_frac
  if f < 0 then f = f + limit; w = w - 1 end
  local retry = w
  if f > 0 then retry = retry + 1 end
  local reset = d
  if base_frac > 0 then reset = reset + 1 end
  return {0, tokens_left(d, base_frac), retry, reset}
end
