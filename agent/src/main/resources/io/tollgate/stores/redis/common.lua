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
