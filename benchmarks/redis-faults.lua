-- wrk script for run-redis-faults.sh: every request carries the header K (the rule's key), and
-- the answers are counted by kind. A 200 without a RateLimit header was decided by a rule's
-- on-failure policy (Tollgate sends no quota headers then); a 503 is on-failure: deny.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrk.headers["K"] = os.getenv("KEY") or "bench"
  ok, fallback, refused, unavailable, other = 0, 0, 0, 0, 0
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
    if headers["RateLimit"] == nil and headers["ratelimit"] == nil then
      fallback = fallback + 1
    end
  elseif status == 429 then
    refused = refused + 1
  elseif status == 503 then
    unavailable = unavailable + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local t = { ok = 0, fallback = 0, refused = 0, unavailable = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(t) do
      t[name] = t[name] + thread:get(name)
    end
  end
  io.write(string.format(
    "WRK ok=%d fallback=%d refused=%d unavailable=%d other=%d errors=%d max_ms=%.1f p99_ms=%.1f\n",
    t.ok, t.fallback, t.refused, t.unavailable, t.other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency.max / 1000, latency:percentile(99) / 1000))
end
