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

-- now as (seconds, nanoseconds within the second): the test override, or Redis TIME, read once
-- per call and kept as numbers (budgets.lua reads it before each budget's part does).
local time_s, time_ns
local function read_now(override)
  if override ~= nil and override ~= '' then return split_ns(override) end
  if not time_s then
    local t = redis.call('TIME')
    time_s, time_ns = tonumber(t[1]), tonumber(t[2]) * 1000
  end
  return time_s, time_ns
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
-- ARGV[16]  the caller: the instance's name (RedisBackend.callerId; empty: none)
-- ARGV[17]  the parameters the state is written with, the hash's field p (see below):
--           unitNanos:periodUnits:limit:capWhole:capFraction, with capWhole = toleranceWhole +
--           maxDelayUnits and capFraction = toleranceFraction (RedisGcraStore sends it made once)
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

-- The helpers come first and take what they use as arguments. The script is a function Redis runs
-- afresh on every call, so each helper is made again on every call, and one that closes over the
-- call's values costs Redis ~25 ns a value captured: ~1.2 us a decision when they did.

-- k * T as a (whole, fraction) pair: k * intervalWhole + (k * intervalRemainder) / limit.
local function times_interval(k, iw, ir, limit)
  local fr = k * ir
  return k * iw + math.floor(fr / limit), fr % limit
end

-- floor(((a * limit) + b) / periodUnits): whole intervals in a + b/limit units; 0 when negative.
local function whole_intervals(a, b, iw, ir, limit, burst)
  if a < 0 then return 0 end
  local k = math.floor((a + b / limit) / (iw + ir / limit))
  if k < 0 then k = 0 end
  if k > burst + 1 then k = burst + 1 end
  local guard = 0
  while k > 0 do -- while k * T exceeds a + b/limit
    local w, f = times_interval(k, iw, ir, limit)
    if not (w > a or (w == a and f > b)) then break end
    k = k - 1
    guard = guard + 1
    if guard > 64 then error('tollgate: token estimate did not converge') end
  end
  while k <= burst do -- while (k + 1) * T does not
    local w, f = times_interval(k + 1, iw, ir, limit)
    if w > a or (w == a and f > b) then break end
    k = k + 1
    guard = guard + 1
    if guard > 64 then error('tollgate: token estimate did not converge') end
  end
  return k
end

-- The pair (w, f) less (w2, f2), fractions below limit.
local function minus(w, f, w2, f2, limit)
  w = w - w2
  f = f - f2
  if f < 0 then f = f + limit; w = w - 1 end
  return w, f
end

-- ceilDiv of a (whole, fraction) pair.
local function ceil_units(w, f)
  if f > 0 then return w + 1 end
  return w
end

-- tat' = base + cost * T (base = now + d0 + f0/limit), kept exact as whole units plus a fraction
-- over limit; and excess = tat' - now - burst * T, as a (whole, fraction) pair. fits: allowed,
-- at once or delayed (excess at most max-delay).
local function charge(d0, f0, cost, iw, ir, limit, tol_whole, tol_frac, md)
  local fraction_sum = f0 + cost * ir
  local nd = d0 + cost * iw + math.floor(fraction_sum / limit)
  local nf = fraction_sum % limit
  local xw, xf = minus(nd, nf, tol_whole, tol_frac, limit)
  return xw < md or (xw == md and xf == 0), nd, nf, xw, xf
end

-- The tat string of now + d units: whole seconds and units within the second (D digits).
local function tat_string(d, now_hi, now_lo, U, D, tat_format)
  local lo = now_lo + d
  local hi = now_hi + math.floor(lo / U)
  lo = lo % U
  if D == 0 then return string.format('%d', hi) end
  if hi == 0 then return string.format('%d', lo) end
  return string.format(tat_format, hi, lo)
end

-- Writes the state and the key's TTL; p too unless nil (it is there already: two fields cost
-- Redis less than three).
local function write_state(key, tat, frac, p, ttl_ms)
  local fraction = frac == 0 and '0' or string.format('%d', frac)
  if p then
    redis.call('HSET', key, 'tat', tat, 'tatFraction', fraction, 'p', p)
  else
    redis.call('HSET', key, 'tat', tat, 'tatFraction', fraction)
  end
  redis.call('PEXPIRE', key, ttl_ms)
end

-- (x + 0 reads a decimal ARGV as tonumber does, without the cost of calling it)
local op = ARGV[1]
local cost = ARGV[3] + 0
local limit = ARGV[4] + 0
local burst = ARGV[5] + 0
local unit_nanos = ARGV[6] + 0
local iw = ARGV[7] + 0
local ir = ARGV[8] + 0
local tol_whole = ARGV[9] + 0
local tol_frac = ARGV[10] + 0
local md = ARGV[11] + 0
local max_cost = ARGV[12] + 0
local ttl_ms = ARGV[13]
-- burst * T + maxDelay: the most tat may run ahead of now.
local cap_whole = tol_whole + md
local cap_frac = tol_frac
local params = ARGV[17]
local key = KEYS[1]

-- Units per second, its decimal digits (the sub-second part of a tat string), and the format
-- that writes a tat string from its seconds and units.
local U = 1000000000 / unit_nanos
local D = 0
local tat_format = '%d'
if unit_nanos == 1000 then D, tat_format = 6, '%d%06d'
elseif unit_nanos == 1000000 then D, tat_format = 3, '%d%03d'
elseif unit_nanos == 1 then D, tat_format = 9, '%d%09d' end

-- now = floorDiv(nowNanos, unitNanos), as whole seconds now_hi plus units now_lo < U.
local now_hi, now_sub_ns = read_now(ARGV[2])
local now_lo = math.floor(now_sub_ns / unit_nanos)

local caller = ARGV[16]
local state = redis.call('HMGET', key, 'tat', 'tatFraction', 'p', 'gifts', 'giftsAt')

if state[1] and state[3] and state[3] ~= params then
  local w, f = carry_used(state[3], state[1], state[2], now_hi, now_sub_ns, limit,
    tonumber(ARGV[14]), cap_whole, cap_frac, tonumber(ARGV[15]))
  if w then
    local tat = tat_string(w, now_hi, now_lo, U, D, tat_format)
    write_state(key, tat, f, params, ttl_ms)
    state = {tat, string.format('%d', f), params, state[4], state[5]}
  else
    redis.call('DEL', key)
    state = {false, false, false, false, false}
  end
end
-- What the writes below add to the hash: p only where it is not there already.
local new_p = params
if state[3] == params then new_p = nil end

-- base = max(tat, now): d = base - now in units, base_frac = baseFraction (0 when tat < now).
local d = 0
local base_frac = 0
if state[1] then
  local s = state[1]
  local tat_hi, tat_lo
  if D == 0 then
    tat_hi, tat_lo = s + 0, 0
  elseif #s <= D then
    tat_hi, tat_lo = 0, s + 0
  else
    tat_hi, tat_lo = string.sub(s, 1, #s - D) + 0, string.sub(s, #s - D + 1) + 0
  end
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
  local all = redis.call('HKEYS', key)
  for _, field in ipairs(all) do
    if string.sub(field, 1, 5) == 'gift:' then redis.call('HDEL', key, field) end
  end
  redis.call('HDEL', key, 'gifts', 'giftsAt')
  state[4] = false
end

if op == 'adjust' then
  -- Moves tat by delta * T: forward at most to the cap, back never before now.
  if cost == 0 or (cost < 0 and not state[1]) then return {1} end
  local units = math.abs(cost)
  if units > max_cost + 1 then units = max_cost + 1 end
  local sw, sf = times_interval(units, iw, ir, limit)
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
    nw, nf = minus(d, base_frac, sw, sf, limit)
    if nw < 0 then
      nw = 0
      nf = 0
    end
  end
  write_state(key, tat_string(nw, now_hi, now_lo, U, D, tat_format), nf, new_p, ttl_ms)
  return {1}
end

if op == 'refund' then
  -- Kept for the other callers (see the header); nothing for an expired key, as adjust.
  if cost <= 0 or not state[1] or caller == '' or (d == 0 and base_frac == 0) then return {1} end
  redis.call('HINCRBY', key, 'gift:' .. caller, cost)
  redis.call('HINCRBY', key, 'gifts', cost)
  redis.call('HSET', key, 'giftsAt', string.format('%d', now_hi))
  return {1}
end

if cost > max_cost then
  -- More than can ever pass: never allowed, so say when the key is back on schedule.
  local a, b = minus(tol_whole, tol_frac, d, base_frac, limit)
  return {0, whole_intervals(a, b, iw, ir, limit, burst), -1, ceil_units(d, base_frac), 0}
end

local fits, new_d, new_frac, ew, ef =
  charge(d, base_frac, cost, iw, ir, limit, tol_whole, tol_frac, md)

-- Refused: a gift of another caller, given back now (tat back by cost intervals, never before
-- now), and the decision made again on that; taken only if it then fits.
if not fits and caller ~= '' and cost > 0 and (tonumber(state[4]) or 0) >= cost then
  local all = redis.call('HGETALL', key)
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
    local sw, sf = times_interval(cost, iw, ir, limit)
    local gd, gf = minus(d, base_frac, sw, sf, limit)
    if gd < 0 then gd = 0; gf = 0 end
    local f2, nd2, nf2, ew2, ef2 = charge(gd, gf, cost, iw, ir, limit, tol_whole, tol_frac, md)
    if f2 then
      local need = cost
      for _, g in ipairs(givers) do
        if need == 0 then break end
        local take = math.min(need, g[2])
        if take == g[2] then
          redis.call('HDEL', key, g[1])
        else
          redis.call('HINCRBY', key, g[1], -take)
        end
        need = need - take
      end
      local left = tonumber(state[4]) - cost
      if left > 0 then
        redis.call('HSET', key, 'gifts', string.format('%d', left))
      else
        redis.call('HDEL', key, 'gifts')
      end
      fits, new_d, new_frac, ew, ef = f2, nd2, nf2, ew2, ef2
    end
  end
end

if ew < 0 or (ew == 0 and ef == 0) then
  write_state(key, tat_string(new_d, now_hi, now_lo, U, D, tat_format), new_frac, new_p, ttl_ms)
  local a, b = minus(tol_whole, tol_frac, new_d, new_frac, limit)
  local k = whole_intervals(a, b, iw, ir, limit, burst)
  -- The wait for one more unit than k: (k + 1) * T - (a + b/limit), rounded up (Gcra.decide's
  -- toNextUnitScaled).
  local nw, nf = times_interval(k + 1, iw, ir, limit)
  return {1, k, 0, ceil_units(new_d, new_frac), 0, ceil_units(minus(nw, nf, a, b, limit))}
elseif ew < md or (ew == md and ef == 0) then
  -- Over the burst by at most max-delay: allowed once the delay has passed, the slot booked.
  write_state(key, tat_string(new_d, now_hi, now_lo, U, D, tat_format), new_frac, new_p, ttl_ms)
  -- A unit passes at once again when tat' is one interval inside the tolerance: excess + T.
  local nw = ew + iw
  local nf = ef + ir
  if nf >= limit then nf = nf - limit; nw = nw + 1 end
  return {1, 0, 0, ceil_units(new_d, new_frac), ceil_units(ew, ef), ceil_units(nw, nf)}
else
  local a, b = minus(tol_whole, tol_frac, d, base_frac, limit)
  return {0, whole_intervals(a, b, iw, ir, limit, burst), ceil_units(ew - md, ef),
    ceil_units(d, base_frac), 0}
end

end
local function decide_rule(KEYS, ARGV)
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

-- Redis TIME read here, once for all budgets, as numbers: each budget's read_now (common.lua)
-- answers with the same reading, and ARGV[2] goes to them as it came.
local now = ARGV[2]
local now_s, now_ns = read_now(now)

if KEYS[2] and ARGV[1] == 'decide' then
  local held = redis.call('HMGET', KEYS[2], 'until', 'answer')
  if held[1] then
    local until_s, until_ns = split_ns(held[1])
    local ds = until_s - now_s
    -- partner-hold.lua writes no wait longer than 2^52 ns: past that, the clock stepped back
    if ds > 4503599 then ds = 4503599 end
    local left = ds * 1000000000 + (until_ns - now_ns)
    if left > 0 then return {-3, left, held[2] or ''} end
  end
end

local n = tonumber(ARGV[4])
if n == 1 then
  -- One budget (the common case): its ARGV straight from ours, nothing to give back on a refusal,
  -- and its reply is the whole reply.
  -- (made whole by one constructor: a table grown entry by entry is resized again and again)
  local reply = decide_budget({KEYS[1] .. ARGV[5]},
    {ARGV[1], now, ARGV[3], unpack(ARGV, 7, 6 + tonumber(ARGV[6]))})
  return {#reply, unpack(reply)}
end

-- Each budget's key suffix, and where its parameters are in ARGV (first to last).
local suffixes, firsts, lasts = {}, {}, {}
local at = 5
for i = 1, n do
  suffixes[i] = ARGV[at]
  firsts[i] = at + 2
  lasts[i] = at + 1 + tonumber(ARGV[at + 1])
  at = lasts[i] + 1
end

local function run(i, op, amount)
  return decide_budget({KEYS[1] .. suffixes[i]},
    {op, now, amount, unpack(ARGV, firsts[i], lasts[i])})
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

end
-- Tollgate (h-batch, step 1: a measurement, not shipped in the agent): several decisions in one
-- call, as a coalescer would send the decisions that came while the call before was in flight on
-- the connection. Put after the agent's script of one call (common.lua, gcra.lua as decide_budget,
-- budgets.lua) with budgets.lua made the function decide_rule(KEYS, ARGV) of one decision
-- (RedisBatchPotential.batchScript, results/redis-batch-cost/batch-cost.sh): each decision reads its KEYS[1] and
-- ARGV exactly as when it was sent alone, and is decided as it would have been alone (a rule's
-- budgets all or none, atomically), one after the other, at the one Redis TIME read for the call.
--
-- KEYS[i]   decision i's key (its KEYS[1] alone; a batch is never sent with a partner-hold key)
-- ARGV      for each decision in turn: the number L of its arguments, then those L arguments
--
-- Returns, for each decision, the length of its reply and then the reply (budgets.lua's, itself
-- a flat list); a decision whose part raised an error has length -1 and then the error's text, so
-- that one decision's error is that decision's alone (what the others wrote stays written, as it
-- would have after separate calls).

local out = {}
local at = 1
for i = 1, #KEYS do
  local len = ARGV[at] + 0
  local ok, reply = pcall(decide_rule, {KEYS[i]}, {unpack(ARGV, at + 1, at + len)})
  at = at + 1 + len
  if ok then
    out[#out + 1] = #reply
    for j = 1, #reply do out[#out + 1] = reply[j] end
  else
    out[#out + 1] = -1
    out[#out + 1] = type(reply) == 'table' and tostring(reply.err) or tostring(reply)
  end
end
return out
