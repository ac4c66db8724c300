-- wrk that serves REQUESTS responses in all and says so (benchmarks/jit-path.sh): a warm-up of a
-- fixed number of requests rather than of seconds, so that a busy machine changes how long it
-- takes and not how much the JIT has seen. Each of THREADS threads stops after its share and
-- writes DONE_DIR/thread-<n>; the script stops wrk when all have (wrk itself runs out its -d).
local count = 0
function setup(thread)
  count = count + 1
  thread:set("id", count)
  thread:set("share", math.floor(tonumber(os.getenv("REQUESTS") or "200000") / tonumber(os.getenv("THREADS") or "2")))
end
function init(args)
  share = tonumber(wrk.thread:get("share"))
  id = wrk.thread:get("id")
  done = 0
end
function response(status, headers, body)
  done = done + 1
  if done == share then
    local f = io.open((os.getenv("DONE_DIR") or "/tmp") .. "/thread-" .. id, "w")
    f:write(done .. "\n")
    f:close()
    wrk.thread:stop()
  end
end
