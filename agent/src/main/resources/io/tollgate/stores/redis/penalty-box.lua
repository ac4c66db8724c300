-- Tollgate penalty box: PenaltyBox.check and PenaltyBox.record (io.tollgate.limiters.PenaltyBox),
-- line for line, on one hash per key holding exactly PenaltyBox.State: fields until (boxedUntil,
-- decimal epoch nanoseconds; absent: never boxed), retry (retryFrom: when the boxed key may retry,
-- the box's end or later when the limiter that filled it said so; absent in hashes written before
-- it existed), head and size (the ring's), and the ring slots r0 .. r(max-1) (decimal epoch
-- nanoseconds of the refusals counted).
--
-- KEYS[1]   the hash (RedisKeys.penaltyKey: hash-tagged like the rule's bucket of the same key)
-- ARGV[1]   check | record
-- ARGV[2]   "now" as epoch nanoseconds (tests only); empty: Redis TIME is the clock
-- ARGV[3]   maxRefusals (1 .. 1000)
-- ARGV[4]   period in nanoseconds (at most 2^52, checked by RedisPenaltyBox)
-- ARGV[5]   penalty in nanoseconds (at most 2^52, checked by RedisPenaltyBox)
-- ARGV[6]   milliseconds to PEXPIRE the hash with on every write (idleNanosUntilFresh, rounded up)
-- ARGV[7]   record only: the limiter's retry-after of this refusal in nanoseconds (at most 2^52)
--
-- check returns {0} when the key is not boxed, {1, leftNanos} when it is, leftNanos being the time
-- to retry (the box's, or the limiter's when longer); it reads TIME only for
-- a key that has been boxed, and writes nothing. record counts one refusal and returns {1} when it
-- filled the box, {0} otherwise (the caller stretches the verdict, as PenaltyBox.record does).
--
-- Exact arithmetic: times stay decimal strings or (seconds, nanoseconds) pairs; differences are
-- exact while under 2^53 ns (104 days) either way, and beyond that only their side matters.

local op = ARGV[1]
local max_refusals = tonumber(ARGV[3])
local period = tonumber(ARGV[4])
local penalty = tonumber(ARGV[5])
local ttl_ms = ARGV[6]
local FAR = 8000000 -- seconds: more than 2^52 ns, less than 2^53

-- (a - b) in nanoseconds for two (seconds, nanoseconds) pairs, clamped to +-(2^52 + 2 * 10^15).
local function minus(a_sec, a_ns, b_sec, b_ns)
  local ds = a_sec - b_sec
  if ds > FAR then return 4503599627370496 + 2000000000000000 end
  if ds < -FAR then return -(4503599627370496 + 2000000000000000) end
  return ds * 1000000000 + (a_ns - b_ns)
end

-- (seconds, nanoseconds) + nanoseconds (0 .. 2^52): a (seconds, nanoseconds) pair.
local function plus(sec, ns, nanos)
  local p_sec, p_ns = divmod(nanos, 1000000000)
  local r_sec, r_ns = sec + p_sec, ns + p_ns
  if r_ns >= 1000000000 then
    r_ns = r_ns - 1000000000
    r_sec = r_sec + 1
  end
  return r_sec, r_ns
end

if op == 'check' then
  local box = redis.call('HMGET', KEYS[1], 'until', 'retry')
  local until_ns = box[1]
  if not until_ns then return {0} end
  local now_sec, now_ns = read_now(ARGV[2])
  local u_sec, u_ns = split_ns(until_ns)
  local left = minus(u_sec, u_ns, now_sec, now_ns)
  if left <= 0 then return {0} end
  -- Never more than the penalty, even if Redis's clock stepped back since the box began.
  if left > penalty then left = penalty end
  if box[2] then
    local r_sec, r_ns = split_ns(box[2])
    local to_retry = minus(r_sec, r_ns, now_sec, now_ns)
    -- the limiter's wait is at most 2^52 ns, whatever the clock did since
    if to_retry > 4503599627370496 then to_retry = 4503599627370496 end
    if to_retry > left then left = to_retry end
  end
  return {1, left}
end

-- record
local now_sec, now_ns = read_now(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'head', 'size')
local head = tonumber(state[1]) or 0
local size = tonumber(state[2]) or 0
while size > 0 do
  local oldest = redis.call('HGET', KEYS[1], 'r' .. head)
  local o_sec, o_ns = split_ns(oldest)
  if minus(now_sec, now_ns, o_sec, o_ns) >= period then
    head = (head + 1) % max_refusals
    size = size - 1
  else
    break
  end
end
local now = join_ns(now_sec, now_ns)
redis.call('HSET', KEYS[1], 'r' .. ((head + size) % max_refusals), now)
size = size + 1
local boxed = 0
if size >= max_refusals then
  redis.call('HSET', KEYS[1], 'until', join_ns(plus(now_sec, now_ns, penalty)))
  local wait = tonumber(ARGV[7]) or 0
  if wait < penalty then wait = penalty end
  redis.call('HSET', KEYS[1], 'retry', join_ns(plus(now_sec, now_ns, wait)))
  head = 0
  size = 0
  boxed = 1
end
redis.call('HSET', KEYS[1], 'head', string.format('%d', head), 'size', string.format('%d', size))
redis.call('PEXPIRE', KEYS[1], ttl_ms)
return {boxed}
