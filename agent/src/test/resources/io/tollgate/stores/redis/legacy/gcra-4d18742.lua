-- The token bucket's and gcra's whole script as agents up to 4d18742 loaded it (common.lua, gcra.lua as
-- decide_budget, budgets.lua), kept for GcraRollingUpgradeTest: a rolling upgrade runs it beside
-- the script of later agents on the same keys.
-- Tollgate: the shared head of the algorithm scripts (RedisScript prepends it): the clock, and
-- exact integer helpers on Lua numbers. Lua numbers are doubles, exact for integers below 2^53:
-- each helper states the bounds within which it is exact, and the Java stores refuse, by rule name,
-- any rule whose numbers could leave them.
--
-- ARGV[1] is the operation (decide, adjust, release) and ARGV[2] the time: empty for Redis TIME,
-- or (tests only) epoch nanoseconds.

if redis.replicate_commands then
  -- Redis 3.2 to 4: required before writes that follow TIME. A no-op from Redis 5 on.
  pcall(redis.replicate_commands)
end

-- An epoch-nanosecond decimal string as whole seconds and nanoseconds within the second.
local function split_ns(s)
  if #s > 9 then
    return tonumber(string.sub(s, 1, #s - 9)), tonumber(string.sub(s, #s - 8))
  end
  return 0, tonumber(s)
end

-- The decimal string of sec * 10^9 + ns, for 0 <= ns < 10^9.
local function join_ns(sec, ns)
  if sec == 0 then return string.format('%d', ns) end
  return string.format('%d%09d', sec, ns)
end

-- now as (seconds, nanoseconds within the second): the test override, or Redis TIME.
local function read_now(override)
  if override ~= nil and override ~= '' then return split_ns(override) end
  local t = redis.call('TIME')
  return tonumber(t[1]), tonumber(t[2]) * 1000
end

-- q, r with a = q * b + r and 0 <= r < b; for 0 <= a < 2^53 and 1 <= b < 2^52.
local function divmod(a, b)
  local q = math.floor(a / b)
  local r = a - q * b
  if r < 0 then
    q = q - 1
    r = r + b
  elseif r >= b then
    q = q + 1
    r = r - b
  end
  return q, r
end

-- The bits of 0 <= a < 2^53, lowest first.
local function bits_of(a)
  local bits = {}
  while a > 0 do
    local bit = a % 2
    bits[#bits + 1] = bit
    a = (a - bit) / 2
  end
  return bits
end

-- q, r with a * b = q * m + r and 0 <= r < m, exactly, by long multiplication bit by bit of a
-- (r stays below m, so 2r and r + b mod m stay below 2^53): for 0 <= a, b < 2^53 and
-- 1 <= m <= 2^52. q is exact when a * (floor(b / m) + 1) < 2^53; r always is.
local function muldivmod(a, b, m)
  local bq, br = divmod(b, m)
  local bits = bits_of(a)
  local q, r = 0, 0
  for i = #bits, 1, -1 do
    q = q * 2
    r = r * 2
    if r >= m then
      r = r - m
      q = q + 1
    end
    if bits[i] == 1 then
      r = r + br
      if r >= m then
        r = r - m
        q = q + 1
      end
    end
  end
  return a * bq + q, r
end

-- floorMod(now, period) with now = hi * base + lo units (0 <= lo < base <= 10^9, hi < 2^53),
-- for 1 <= period <= 2^52.
local function floor_mod(hi, lo, base, period)
  local _, r = muldivmod(hi, base, period)
  local _, e = divmod(r + lo, period)
  return e
end

-- (hi * base + lo) - x as a new (hi, lo) pair, for 0 <= x < 2^52.
local function pair_minus(hi, lo, base, x)
  local xh, xl = divmod(x, base)
  hi = hi - xh
  lo = lo - xl
  if lo < 0 then
    lo = lo + base
    hi = hi - 1
  end
  return hi, lo
end

-- The token bucket's and GCRA's state written under other parameters (a reload changed the limit,
-- the period, the burst or max-delay), carried over as io.tollgate.limiters.UsedTokens does: the
-- tokens used stay used. written = 'unit:periodUnits:limit:capWhole:capFraction' of the writer;
-- tat_s, tat_frac its state; now as (seconds, nanoseconds); then the reader's limit, period in its
-- units, most ahead (cap_whole, cap_frac) and most tokens (maxTokens = floor(capScaled / period)
-- + 1). Returns how far ahead of now the reader's tat is, as (whole units, fraction), or nil when
-- nothing was used.
local function carry_used(written, tat_s, tat_frac, now_s, now_ns, limit, period, cap_whole,
    cap_frac, max_tokens)
  local ou, op, ol, ocw, ocf = string.match(written, '^(%d+):(%d+):(%d+):(%d+):(%d+)$')
  if not ou then return nil end
  ou, op, ol, ocw, ocf = tonumber(ou), tonumber(op), tonumber(ol), tonumber(ocw), tonumber(ocf)
  local oU = 1000000000 / ou
  local oD = 0
  if ou == 1 then oD = 9 elseif ou == 1000 then oD = 6 elseif ou == 1000000 then oD = 3 end
  local hi, lo
  if oD == 0 then
    hi, lo = tonumber(tat_s), 0
  elseif #tat_s <= oD then
    hi, lo = 0, tonumber(tat_s)
  else
    hi, lo = tonumber(string.sub(tat_s, 1, #tat_s - oD)), tonumber(string.sub(tat_s, #tat_s - oD + 1))
  end
  local now_lo = math.floor(now_ns / ou)
  local frac = tonumber(tat_frac) or 0
  if hi < now_s or (hi == now_s and (lo < now_lo or (lo == now_lo and frac == 0))) then
    return nil
  end
  local d
  if hi - now_s > ocw / oU + 2 then
    d, frac = ocw, ocf
  else
    d = (hi - now_s) * oU + (lo - now_lo)
    if d > ocw or (d == ocw and frac > ocf) then d, frac = ocw, ocf end
  end
  -- used = ceil((d * ol + frac) / op)
  local q, r = muldivmod(d, ol, op)
  local q2, r2 = divmod(r + frac, op)
  local used = q + q2
  if r2 > 0 then used = used + 1 end
  if used > max_tokens then used = max_tokens end
  -- used * period, scaled by limit, as (whole, fraction); at most the cap.
  local w, f = muldivmod(used, period, limit)
  if w > cap_whole or (w == cap_whole and f > cap_frac) then return cap_whole, cap_frac end
  return w, f
end

local function decide_budget(KEYS, ARGV)
-- Tollgate GCRA and token bucket: Gcra.decide and Gcra.adjust (io.tollgate.limiters.Gcra), line
-- for line. The token bucket (TokenBucket) is GCRA without max-delay: the same script with ARGV[11]
-- = 0. With max-delay, a request over the burst tolerance by at most max-delay is allowed with a
-- delay, and its slot booked.
--
-- KEYS[1]   a hash with fields tat (decimal integer, time units since the Unix epoch) and
--           tatFraction (in 1/limit of a unit), exactly Gcra.State.
-- ARGV[1]   decide | adjust | refund
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   cost (decide) or delta (adjust: > 0 charges, < 0 refunds)
-- ARGV[4]   limit
-- ARGV[5]   burst
-- ARGV[6]   unitNanos: 1, 1000, 1000000 or 1000000000 (Gcra.unitNanos())
-- ARGV[7]   intervalWhole      = floor(periodUnits / limit)   (T in whole units)
-- ARGV[8]   intervalRemainder  = periodUnits mod limit         (the rest of T, over limit)
-- ARGV[9]   toleranceWhole     = floor(burst * periodUnits / limit)
-- ARGV[10]  toleranceFraction  = burst * periodUnits mod limit
--           (burstToleranceScaled = toleranceWhole * limit + toleranceFraction)
-- ARGV[11]  maxDelayUnits      (maxDelayScaled = maxDelayUnits * limit; 0 for a token bucket)
-- ARGV[12]  maxCost            = floor((burst * periodUnits + maxDelayUnits * limit) / periodUnits)
-- ARGV[13]  milliseconds to PEXPIRE the key with on every write (idleNanosUntilFresh, rounded up)
-- ARGV[14]  periodUnits        = the period in units
-- ARGV[15]  maxTokens          = floor((burstToleranceScaled + maxDelayScaled) / periodUnits) + 1
-- ARGV[16]  the caller: the instance's name (RedisBackend.callerId; empty or absent: none)
--
-- refund gives back ARGV[3] tokens granted to the caller that it cannot spend (LateReplyLedger),
-- for the other instances only: kept beside the bucket as gifts (fields gift:CALLER, and their sum
-- in gifts), not as tat moved back, because the caller's own next calls, queued on its connection
-- right behind the refund, would take them again before any other instance's call came (with
-- replies 1 s late, the instance that gave a token back was granted it again ~2 times in 3). A
-- decision of another caller that the bucket refuses takes a gift as adjust would have given it
-- back then (tat back by cost intervals, never before now) and is decided again on that; a
-- decision that finds the bucket full drops them (time has given them back). So a gift is never
-- more than the token it was, and the bucket never more than full. When no gift has come for 2 s
-- (giftsAt: the latest's second), a giver's call may take its own too: gifts nobody else came for
-- are not kept from it (an instance alone on the key again, or Redis fast again).
--
-- The hash's field p names the parameters it was written with (unit:periodUnits:limit:capWhole:
-- capFraction); a state written with others (a reload changed the rule) is carried over first, as
-- Gcra.inherit does: the tokens used stay used (common.lua's carry_used), and written back at once,
-- so that it is converted once. A token bucket's hash is the one that token-bucket.lua (this
-- script's twin until 0.1.0) wrote, with the same fields and the same p: its keys read on as they
-- were (TokenBucketUpgradeTest).
--
-- decide returns {allowed (1 or 0), remaining, retryUnits (-1: cost above maxCost, never allowed),
-- resetUnits, delayUnits, nextUnitUnits (allowed only: until one more unit would pass at once)};
-- the caller multiplies units by unitNanos. adjust returns {1}.
--
-- Exact arithmetic on Lua numbers (doubles, exact integers up to 2^53). Java keeps every value as
-- one long; here the large ones are split so that nothing exceeds 2^53:
--  * absolute times (tat, now: up to ~1.8e18 ns) are kept as whole seconds plus units within
--    the second, parsed from and written back to the decimal string, never as one number;
--  * "scaled" quantities (units * limit + fraction, up to ~2^60 in Java) are kept as a pair
--    (whole units, fraction < limit) and compared lexicographically;
--  * what remains are differences from now in units, bounded by 2 * (toleranceWhole +
--    maxDelayUnits) + maxCost + 1 + 3e9, and k * intervalRemainder below (maxCost + 2) * limit;
--    RedisGcraStore refuses a rule for which either exceeds 2^53.
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
local md = tonumber(ARGV[11])
local max_cost = tonumber(ARGV[12])
local ttl_ms = ARGV[13]
local period_units = tonumber(ARGV[14])
local max_tokens = tonumber(ARGV[15])
-- burst * T + maxDelay: the most tat may run ahead of now.
local cap_whole = tol_whole + md
local cap_frac = tol_frac
local params = ARGV[6] .. ':' .. ARGV[14] .. ':' .. ARGV[4] .. ':' .. string.format('%d', cap_whole)
  .. ':' .. ARGV[10]

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

-- k * T as a (whole, fraction) pair: k * intervalWhole + (k * intervalRemainder) / limit.
local function times_interval(k)
  local fr = k * ir
  return k * iw + math.floor(fr / limit), fr % limit
end

-- Is k * T greater than (a + b/limit) units?
local function exceeds(k, a, b)
  local w, f = times_interval(k)
  return w > a or (w == a and f > b)
end

-- floor(((a * limit) + b) / periodUnits): whole intervals in a + b/limit units; 0 when negative.
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
  while k <= burst and not exceeds(k + 1, a, b) do
    k = k + 1
    guard = guard + 1
    if guard > 64 then error('tollgate: token estimate did not converge') end
  end
  return k
end

-- remaining(behindScaled): whole units that would pass at once with tat = now + d (+ fraction).
local function remaining(d, frac)
  local a = tol_whole - d
  local b = tol_frac - frac
  if b < 0 then b = b + limit; a = a - 1 end
  return whole_intervals(a, b)
end

-- ceilDiv of a (whole, fraction) pair.
local function ceil_units(w, f)
  if f > 0 then return w + 1 end
  return w
end

local function write_tat(d, frac)
  local lo = now_lo + d
  local hi = now_hi + math.floor(lo / U)
  lo = lo % U
  redis.call('HSET', KEYS[1], 'tat', join(hi, lo), 'tatFraction', string.format('%d', frac),
    'p', params)
  redis.call('PEXPIRE', KEYS[1], ttl_ms)
end

local caller = ARGV[16] or ''
local state = redis.call('HMGET', KEYS[1], 'tat', 'tatFraction', 'p', 'gifts', 'giftsAt')

if state[1] and state[3] and state[3] ~= params then
  local w, f = carry_used(state[3], state[1], state[2], now_hi, now_sub_ns, limit, period_units,
    cap_whole, cap_frac, max_tokens)
  if w then
    write_tat(w, f)
    local lo = now_lo + w
    local hi = now_hi + math.floor(lo / U)
    state = {join(hi, lo % U), string.format('%d', f), params, state[4], state[5]}
  else
    redis.call('DEL', KEYS[1])
    state = {false, false, false, false, false}
  end
end

-- base = max(tat, now): d = base - now in units, base_frac = baseFraction (0 when tat < now).
local d = 0
local base_frac = 0
if state[1] then
  local tat_hi, tat_lo = split(state[1])
  if tat_hi > now_hi or (tat_hi == now_hi and tat_lo >= now_lo) then
    base_frac = tonumber(state[2]) or 0
    local ds = tat_hi - now_hi
    if ds > cap_whole / U + 2 then
      d = cap_whole + 1
    else
      d = ds * U + (tat_lo - now_lo)
    end
    -- Never more than burst * T + maxDelay ahead (as written below), unless the Redis clock stepped
    -- back: then the key counts as fully used rather than as far in the future.
    if d > cap_whole or (d == cap_whole and base_frac > cap_frac) then
      d = cap_whole
      base_frac = cap_frac
    end
  end
end

-- Gifts (see refund) are tokens given back; a bucket found full has had them all back from time,
-- as adjust would have given them (never beyond full): they are dropped.
if state[4] and d == 0 and base_frac == 0 then
  local all = redis.call('HKEYS', KEYS[1])
  for _, field in ipairs(all) do
    if string.sub(field, 1, 5) == 'gift:' then redis.call('HDEL', KEYS[1], field) end
  end
  redis.call('HDEL', KEYS[1], 'gifts', 'giftsAt')
  state[4] = false
end

if op == 'adjust' then
  -- Moves tat by delta * T: forward at most to the cap, back never before now.
  if cost == 0 or (cost < 0 and not state[1]) then return {1} end
  local units = math.abs(cost)
  if units > max_cost + 1 then units = max_cost + 1 end
  local sw, sf = times_interval(units)
  local nw, nf
  if cost > 0 then
    nw = d + sw
    nf = base_frac + sf
    if nf >= limit then nf = nf - limit; nw = nw + 1 end
    if nw > cap_whole or (nw == cap_whole and nf > cap_frac) then
      nw = cap_whole
      nf = cap_frac
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

if op == 'refund' then
  -- Kept for the other callers (see the header); nothing for an expired key, as adjust.
  if cost <= 0 or not state[1] or caller == '' or (d == 0 and base_frac == 0) then return {1} end
  redis.call('HINCRBY', KEYS[1], 'gift:' .. caller, cost)
  redis.call('HINCRBY', KEYS[1], 'gifts', cost)
  redis.call('HSET', KEYS[1], 'giftsAt', string.format('%d', now_hi))
  return {1}
end

if cost > max_cost then
  -- More than can ever pass: never allowed, so say when the key is back on schedule.
  return {0, remaining(d, base_frac), -1, ceil_units(d, base_frac), 0}
end

-- tat' = base + cost * T, kept exact as whole units plus a fraction over limit; and excess =
-- tat' - now - burst * T, as a (whole, fraction) pair. fits: allowed, at once or delayed.
local function charge(d0, f0)
  local fraction_sum = f0 + cost * ir
  local nd = d0 + cost * iw + math.floor(fraction_sum / limit)
  local nf = fraction_sum % limit
  local xw = nd - tol_whole
  local xf = nf - tol_frac
  if xf < 0 then xf = xf + limit; xw = xw - 1 end
  return xw < md or (xw == md and xf == 0), nd, nf, xw, xf
end

local fits, new_d, new_frac, ew, ef = charge(d, base_frac)

-- Refused: a gift of another caller, given back now (tat back by cost intervals, never before
-- now), and the decision made again on that; taken only if it then fits.
if not fits and caller ~= '' and cost > 0 and (tonumber(state[4]) or 0) >= cost then
  local all = redis.call('HGETALL', KEYS[1])
  local givers = {}
  local others = 0
  -- No gift for 2 s (whole seconds of Redis time): the others have not come for them, and the
  -- givers may take their own back (an instance alone on the key again, Redis fast again).
  local own_too = now_hi - (tonumber(state[5]) or now_hi) >= 2
  for i = 1, #all, 2 do
    local field = all[i]
    if string.sub(field, 1, 5) == 'gift:' and (own_too or field ~= 'gift:' .. caller) then
      local n = tonumber(all[i + 1]) or 0
      if n > 0 then
        givers[#givers + 1] = {field, n}
        others = others + n
      end
    end
  end
  if others >= cost then
    local sw, sf = times_interval(cost)
    local gd = d - sw
    local gf = base_frac - sf
    if gf < 0 then gf = gf + limit; gd = gd - 1 end
    if gd < 0 then gd = 0; gf = 0 end
    local f2, nd2, nf2, ew2, ef2 = charge(gd, gf)
    if f2 then
      local need = cost
      for _, g in ipairs(givers) do
        if need == 0 then break end
        local take = math.min(need, g[2])
        if take == g[2] then
          redis.call('HDEL', KEYS[1], g[1])
        else
          redis.call('HINCRBY', KEYS[1], g[1], -take)
        end
        need = need - take
      end
      local left = tonumber(state[4]) - cost
      if left > 0 then
        redis.call('HSET', KEYS[1], 'gifts', string.format('%d', left))
      else
        redis.call('HDEL', KEYS[1], 'gifts')
      end
      fits, new_d, new_frac, ew, ef = f2, nd2, nf2, ew2, ef2
    end
  end
end

-- The wait for one more unit than k: (k + 1) * T - (a + b/limit), rounded up (Gcra.decide's
-- toNextUnitScaled).
local function next_unit(k, a, b)
  local w, f = times_interval(k + 1)
  w = w - a
  f = f - b
  if f < 0 then f = f + limit; w = w - 1 end
  return ceil_units(w, f)
end

if ew < 0 or (ew == 0 and ef == 0) then
  write_tat(new_d, new_frac)
  local a = tol_whole - new_d
  local b = tol_frac - new_frac
  if b < 0 then b = b + limit; a = a - 1 end
  local k = whole_intervals(a, b)
  return {1, k, 0, ceil_units(new_d, new_frac), 0, next_unit(k, a, b)}
elseif ew < md or (ew == md and ef == 0) then
  -- Over the burst by at most max-delay: allowed once the delay has passed, the slot booked.
  write_tat(new_d, new_frac)
  -- A unit passes at once again when tat' is one interval inside the tolerance: excess + T.
  local nw = ew + iw
  local nf = ef + ir
  if nf >= limit then nf = nf - limit; nw = nw + 1 end
  return {1, 0, 0, ceil_units(new_d, new_frac), ceil_units(ew, ef), ceil_units(nw, nf)}
else
  return {0, remaining(d, base_frac), ceil_units(ew - md, ef), ceil_units(d, base_frac), 0}
end

end
-- Tollgate: one call over all of a rule's budgets. RedisScript appends this after an algorithm's
-- script, which it has made the function decide_budget(KEYS, ARGV) of one budget: the script reads
-- its own KEYS[1] and ARGV exactly as when it ran alone.
--
-- KEYS[1]   the rule's key for one client (RedisKeys.bucketKey: tollgate:v2:{RULE:DIGEST}:ALGORITHM)
-- ARGV[1]   decide | adjust | release
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME, read once for all budgets
-- ARGV[3]   cost (decide, release) or delta (adjust)
-- ARGV[4]   n, the number of budgets; then for each budget: the suffix of its key (RedisKeys
--           .budgetSuffix: empty for a rule of one limit, ':1s' for one of several), the number m
--           of its parameters, and those m parameters (the algorithm script's ARGV[4..3+m])
--
-- KEYS[2]   optional (outbound rules): the hash where partner-hold.lua keeps the wait a partner
--           asked of this client key (RedisKeys.partnerHoldKey: the same hash tag as KEYS[1])
--
-- Budget i's key is KEYS[1] .. suffix: the same hash tag, so the same Cluster slot as KEYS[1].
--
-- decide runs the budgets in order; when one refuses, what the others took is given back (adjust
-- by -cost) before the script ends, so the rule's budgets are charged all or none, atomically, as
-- LocalLimiterStore decides a LimitGroup. An algorithm's special reply (calendar.lua's -2: Redis
-- time outside the windows sent) ends the call at once; such algorithms have one budget.
--
-- A decide with KEYS[2] while the partner's wait there lasts charges nothing and returns {-3,
-- leftNanos, answer} (never a budget's reply: those start with their length, at least 1), so that
-- every instance holds the calls a partner asked one of them to hold, in the call that decides them.
--
-- Returns, for each budget, the length of its reply and then the reply, one flat list.

local now = ARGV[2]
if now == '' then
  local t = redis.call('TIME')
  now = join_ns(tonumber(t[1]), tonumber(t[2]) * 1000)
end

if KEYS[2] and ARGV[1] == 'decide' then
  local held = redis.call('HMGET', KEYS[2], 'until', 'answer')
  if held[1] then
    local now_s, now_ns = split_ns(now)
    local until_s, until_ns = split_ns(held[1])
    local ds = until_s - now_s
    -- partner-hold.lua writes no wait longer than 2^52 ns: past that, the clock stepped back
    if ds > 4503599 then ds = 4503599 end
    local left = ds * 1000000000 + (until_ns - now_ns)
    if left > 0 then return {-3, left, held[2] or ''} end
  end
end

local n = tonumber(ARGV[4])
local suffixes = {}
local params = {}
local at = 5
for i = 1, n do
  suffixes[i] = ARGV[at]
  local m = tonumber(ARGV[at + 1])
  local p = {}
  for j = 1, m do p[j] = ARGV[at + 1 + j] end
  params[i] = p
  at = at + 2 + m
end

local function run(i, op, amount)
  local argv = {op, now, amount}
  for j = 1, #params[i] do argv[3 + j] = params[i][j] end
  return decide_budget({KEYS[1] .. suffixes[i]}, argv)
end

local replies = {}
local refused = false
for i = 1, n do
  local reply = run(i, ARGV[1], ARGV[3])
  if reply[1] == -2 then return {#reply, unpack(reply)} end
  replies[i] = reply
  if ARGV[1] == 'decide' and reply[1] ~= 1 then refused = true end
end
if refused then
  local refund = string.format('%d', -tonumber(ARGV[3]))
  for i = 1, n do
    if replies[i][1] == 1 then run(i, 'adjust', refund) end
  end
end

local out = {}
for i = 1, n do
  out[#out + 1] = #replies[i]
  for j = 1, #replies[i] do out[#out + 1] = replies[i][j] end
end
return out
