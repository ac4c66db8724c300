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
