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
