-- wrk script for run-redis-faults.sh: every request carries the header K (the rule's key), and
-- the answers are counted by kind. A 200 without a RateLimit header was decided by a rule's
-- on-failure policy (Tollgate sends no quota headers then); a 503 is on-failure: deny.
-- With PER_SECOND=1 the same counts are also kept per wall-clock second (os.time()), printed as
-- WRKSEC lines: what was admitted, and how, through an outage.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrk.headers["K"] = os.getenv("KEY") or "bench"
  ok, fallback, refused, unavailable, other = 0, 0, 0, 0, 0
  per_second = os.getenv("PER_SECOND") == "1"
  -- one flat table per kind, second -> count: wrk's thread:get crashes copying nested tables
  sec_ok, sec_fallback, sec_refused, sec_unavailable = {}, {}, {}, {}
end

local function count_second(kind)
  local t = _G["sec_" .. kind]
  local now = os.time()
  t[now] = (t[now] or 0) + 1
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
    if per_second then count_second("ok") end
    if headers["RateLimit"] == nil and headers["ratelimit"] == nil then
      fallback = fallback + 1
      if per_second then count_second("fallback") end
    end
  elseif status == 429 then
    refused = refused + 1
    if per_second then count_second("refused") end
  elseif status == 503 then
    unavailable = unavailable + 1
    if per_second then count_second("unavailable") end
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
  local kinds = { "ok", "fallback", "refused", "unavailable" }
  local merged, times = {}, {}
  for _, thread in ipairs(threads) do
    for _, kind in ipairs(kinds) do
      for second, n in pairs(thread:get("sec_" .. kind) or {}) do
        if merged[second] == nil then
          merged[second] = { ok = 0, fallback = 0, refused = 0, unavailable = 0 }
          table.insert(times, second)
        end
        merged[second][kind] = merged[second][kind] + n
      end
    end
  end
  table.sort(times)
  for _, second in ipairs(times) do
    local s = merged[second]
    io.write(string.format("WRKSEC t=%d ok=%d fallback=%d refused=%d unavailable=%d\n",
      second, s.ok, s.fallback, s.refused, s.unavailable))
  end
end
