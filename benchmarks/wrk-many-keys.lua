-- wrk script for run-end-to-end.sh with KEYS=many: every request names one of 10,000 clients in
-- X-Client, so that a rule keyed by header:X-Client (and the Bucket4j filter keyed by the same
-- header) keeps a bucket per client instead of one hot key.
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/hello", { ["X-Client"] = "client-" .. math.random(1, 10000) })
end
