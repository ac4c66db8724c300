#!/usr/bin/env bash
# Adaptive concurrency (issue 23): servlet-jakarta's GET /api/pool, a pool of 8 "connections" of
# 20 ms each (a capacity near 400 requests/s; a request that waits over 1 s for one gets 503),
# driven by an open-loop load generator (io.tollgate.benchmarks.OpenLoopLoad: fixed arrival rate,
# latency from the time each request was due) through these phases, one run per configuration:
#   warm1 200/s 10 s, warm2 400/s 10 s   warm-up (the JIT, and every limiter's first estimates)
#   1x 400/s, 2x 800/s, 4x 1600/s        PHASE_SECS (20) s each
#   2x-again 800/s 10 s, then slow 800/s PHASE_SECS s: at its start POST /admin/pool?slowdown=2
#                                        makes every use of a connection 2x slower (capacity 200/s,
#                                        so 800/s is 4x the new capacity)
# Configurations (CONFIGS, in this order by default):
#   none      no limiter
#   static    the agent with a concurrency rule tuned by hand for the 1x phase (adaptive-static-rules.yaml)
#   netflix   no agent; Netflix's concurrency-limits filter on /api/pool (-Dtestapp.netflix=gradient2)
#   netflix-vegas  as netflix, with the limit its builder has when none is given (Vegas); not in
#             the default set
#   static8   as static with the limit at the pool's size, 8 (adaptive-static8-rules.yaml); not in
#             the default set
#   adaptive  the agent with algorithm: adaptive-concurrency (adaptive-rules.yaml); an agent whose
#             rules parser does not know it (or any rules file the agent does not apply) is
#             reported as not run, never as a run without a limiter
# Per phase (its first SKIP=5 s left out): goodput (2xx/s), p50/p99 of 2xx latency, p50/p99 of
# refusals (429, or 503 from a limiter), pool timeouts, errors and client timeouts per second. For
# the slow phase, how long after the switch the limit (scraped every second: Netflix's from
# GET /admin/pool, Tollgate's from the agent's Prometheus endpoint), the goodput and the p50 took
# to settle: the first second from which 5 seconds in a row stay within +-20% of the median of the
# phase's last 5 seconds. See BENCHMARKS.md, "Adaptive concurrency".
# Loopback only. Builds nothing: run `mvn -B -q package -DskipTests` first. About 2 minutes per
# configuration. Output: benchmarks/results/adaptive/ (RES=...).
# PIN=1 (default on 2+ cores): the app on CPU 0, the generator on CPU 1 (taskset); PIN=0: no pinning.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a CONFIGS <<<"${CONFIGS:-none static netflix adaptive}"
PHASE_SECS=${PHASE_SECS:-20}; SKIP=${SKIP:-5}; CONNS=${CONNS:-256}; TIMEOUT_MS=${TIMEOUT_MS:-2000}
PORT=${PORT:-18092}; MPORT=${MPORT:-18093}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
APPJAR=test-apps/servlet-jakarta/target/servlet-jakarta.jar
BENCHJAR=benchmarks/target/benchmarks.jar
RES=${RES:-benchmarks/results/adaptive}
JAVA_OPTS=${JAVA_OPTS:--Xms256m -Xmx256m}
POOL_OPTS=${POOL_OPTS:--Dtestapp.pool.size=8 -Dtestapp.pool.hold-ms=20 -Dtestapp.pool.timeout-ms=1000}
# Tollgate's adaptive limit in the agent's Prometheus text (the gauge tollgate_adaptive_limit).
ADAPTIVE_LIMIT_REGEX=${ADAPTIVE_LIMIT_REGEX:-'^tollgate_adaptive_limit\{rule="pool-adaptive"[^}]*\} ([0-9.eE+]+)'}
PIN=${PIN:-$([ "$(nproc)" -ge 2 ] && echo 1 || echo 0)}
SERVER_CPU=(); GEN_CPU=()
[ "$PIN" = 1 ] && { SERVER_CPU=(taskset -c 0); GEN_CPU=(taskset -c 1); }
for f in "$APPJAR" "$BENCHJAR" "$AGENT"; do
  [ -f "$f" ] || { echo "missing $f: build first (mvn -B -q package -DskipTests)" >&2; exit 1; }
done
mkdir -p "$RES"
URL=http://127.0.0.1:$PORT/api/pool
ADMIN=http://127.0.0.1:$PORT/admin/pool
PHASES="warm1:200:10,warm2:400:10,1x:400:$PHASE_SECS,2x:800:$PHASE_SECS,4x:1600:$PHASE_SECS,2x-again:800:10,slow:800:$PHASE_SECS"
LOG=/tmp/tollgate-adaptive.$$.log
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -f "$LOG"; }
trap cleanup EXIT

start_app() { # config -> sets PID; returns 1 when the app does not start
  local args=()
  case $1 in
    none) ;;
    static) args=("-javaagent:$AGENT=config=benchmarks/adaptive-static-rules.yaml,metrics-port=$MPORT") ;;
    static8) args=("-javaagent:$AGENT=config=benchmarks/adaptive-static8-rules.yaml,metrics-port=$MPORT") ;;
    netflix) args=(-Dtestapp.netflix=gradient2) ;;
    netflix-vegas) args=(-Dtestapp.netflix=vegas) ;;
    adaptive) args=("-javaagent:$AGENT=config=benchmarks/adaptive-rules.yaml,metrics-port=$MPORT") ;;
    *) echo "unknown configuration $1" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086
  PORT=$PORT "${SERVER_CPU[@]}" java $JAVA_OPTS $POOL_OPTS "${args[@]}" -jar "$APPJAR" >"$LOG" 2>&1 &
  PID=$!
  for _ in $(seq 1 300); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$ADMIN" || true)" = 200 ]; then
      # a rules file the agent did not apply would make this configuration "none" in disguise
      grep -q 'was not applied' "$LOG" || return 0
      kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; return 1
    fi
    kill -0 "$PID" 2>/dev/null || { PID=; return 1; }
    sleep 0.2
  done
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; return 1
}
stop_app() {
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
  while curl -s -o /dev/null --max-time 1 "$ADMIN"; do sleep 0.2; done
  sleep 2
}

# the tree's state before this run writes its own results (which may be tracked files)
TREE="commit $(git rev-parse --short HEAD)$(git diff --quiet -- . ":(exclude)$RES" || echo ' (uncommitted changes)')"
{
  echo "# $(date -u +%FT%TZ) $TREE"
  echo "# configs: ${CONFIGS[*]}; phases $PHASES; skip ${SKIP}s; connections $CONNS; client timeout ${TIMEOUT_MS} ms; pinned: $PIN"
  echo "# pool: $POOL_OPTS; JAVA_OPTS=$JAVA_OPTS; $(java -version 2>&1 | head -1); cpus $(nproc)"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$RES/runs.txt"

for config in "${CONFIGS[@]}"; do
  echo "== $(date -u +%T) $config (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$RES/runs.txt"
  rm -f "$RES/$config-summary.json" "$RES/$config-seconds.csv"
  if ! start_app "$config"; then
    { echo "$config: the app did not start; its log:"; sed 's/^/  /' "$LOG" | head -20; } | tee -a "$RES/runs.txt"
    continue
  fi
  scrape=()
  case $config in
    netflix*) scrape=(--scrape "$ADMIN" --scrape-regex 'netflix-limit ([0-9]+)') ;;
    adaptive) scrape=(--scrape "http://127.0.0.1:$MPORT/metrics" --scrape-regex "$ADAPTIVE_LIMIT_REGEX") ;;
  esac
  "${GEN_CPU[@]}" java -Xms128m -Xmx256m -cp "$BENCHJAR" io.tollgate.benchmarks.OpenLoopLoad \
    --url "$URL" --phases "$PHASES" --connections "$CONNS" --timeout-ms "$TIMEOUT_MS" --skip "$SKIP" \
    --hook "slow:0:POST:$ADMIN?slowdown=2" "${scrape[@]}" --out "$RES/$config" | tee "$RES/$config-out.txt"
  {
    echo "app state after the run: $(curl -s --max-time 2 "$ADMIN")"
    [ "$config" = none ] || [[ "$config" = netflix* ]] \
      || { curl -s --max-time 2 "http://127.0.0.1:$MPORT/metrics" | grep -E '^tollgate_(rule|adaptive)_[a-z_]+\{rule="pool' | sed 's/^/metrics: /'; } || true
    echo "app log (first 20 lines but refusals):"; grep -v '] refused ' "$LOG" | head -20 | sed 's/^/  /'
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  } | tee -a "$RES/$config-out.txt"
  stop_app
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/runs.txt"

python3 benchmarks/adaptive-table.py "$RES" "${CONFIGS[@]}" >"$RES/summary.md"
cat "$RES/summary.md"
