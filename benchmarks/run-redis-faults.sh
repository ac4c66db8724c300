#!/usr/bin/env bash
# Redis under saturation and faults (BENCHMARKS.md, "Redis under saturation and faults"): three
# servlet-jakarta JVMs with the agent share one Redis, each flooded by its own wrk (CONNS
# connections, DURATION seconds) on a rule keyed by header:K, LIMIT per hour; a fault happens
# during each round. Per round: requests admitted against the limit (a fresh key per round), how
# many were decided by on-failure (200 without quota headers, or 503), the longest and p99 answer,
# and how long after the fault ended the first answer decided by Redis came.
#
# Rounds (ROUNDS to pick): flood (no fault), latency20 / latency200 (the proxy holds every reply),
# lateMS, lateMS-deny, lateMS-local (the ladder of slow Redis: every reply MS ms late, MS one of
# 20 200 1000 2000 10000, LADDER="..." to pick; a slow Redis is decided by the local share
# whatever on-failure says), reload-deny (six reloads that change only redis.timeout, 1.2 s apart,
# during the flood: counts kept, no 503),
# drop (every connection reset once a second), stop (kill -STOP redis for 3 s, then CONT), restart
# (kill -9 redis, start it again 3 s later: it comes back empty), refused (nothing listening for
# 3 s: Redis unreachable, its data kept), and each of these with on-failure: local and deny where
# the goal names them; sentinel (a master, a replica, one sentinel; the master killed).
#
# The agents reach Redis through FaultyProxy (agent/target/test-classes, a loopback TCP proxy
# written for this), except in the sentinel round. Needs wrk, redis-server, redis-sentinel,
# redis-cli, curl, python3 and java, and a build: mvn -B package -DskipTests && mvn -B
# test-compile -pl agent -am. Starts its own processes on free ports and stops them by pid.
# A round named NAME-light runs 2 connections per JVM instead of CONNS, so that its longest answer
# is the agent's, not the saturated app's queueing.
# A round named NAME-many runs MANY connections per JVM (default 133, ~400 in all): with Redis
# 1 s late (late1000-many), the bulkhead (redis.max-waiting-threads) keeps the unmatched path's
# p99 near flood-many's.
# Settings: CONNS=22 MANY=133 DURATION=8 LIMIT=100 TIMEOUT=50ms ROUNDS="..." NAME=redis-faults
# AGENT=path/to/tollgate-agent.jar runs another build of the agent (an older one, for a before).
# AGENT_OPTS="..." adds JVM options to the three agents' JVMs, e.g. AGENT_OPTS=-Dtollgate.redis.batch=false
# for a call per decision (or =true on a build where batching is off by default).
# TRACE=1 has the agents print, per key, how each late call was decided and what its reply said
# (-Dtollgate.test.late-trace=true, builds from h-late3 on); each round then adds one TRACE line
# per JVM: its 200s, and those counts at the flood's end and after the replies drained.
# Every round also measures a path no rule matches (/health on JVM 1, 2 connections beside the
# flood): its p99 (unmatched_p99_ms) is what a slow Redis costs the rest of the app; the goal is
# within 1.5 x of the flood round's (a healthy Redis).
# STARVE=MS starves JVM 3 for the flood's first MS ms: let run 40 ms, stopped (SIGSTOP) 80 ms, in
# turn: its calls go late and it reads its answers late, on a saturated host's scale, while the
# others, answered in time, spend the budget (the flood's start where batched covered bets went
# over the limit, BENCHMARKS.md section 7, h-ledger and h-flight). STARVE_STOP / STARVE_RUN (ms)
# change the slices. CONNS3=N floods JVM 3 with N connections instead (fewer calls in flight than
# the others: with STARVE, the story of a starved instance's few calls against the others' many).
# QUOTA3=RUN_MS/PERIOD_MS starves JVM 3 the way a saturated host does, all its threads at once:
# the JVM (every thread, the event loop with the request threads) is put in a cgroup v1 cpu
# cgroup of its own (/sys/fs/cgroup/cpu/tollgate-faults-PID, root needed; removed at the end)
# whose CFS quota, from the flood's start, lets it run RUN_MS of CPU per PERIOD_MS (period at most
# 1000) and throttles it for the rest: a request thread's 50 ms timeout then fires up to
# PERIOD_MS - RUN_MS late, with no event-loop run in between to read the replies waiting (unlike
# STARVE's SIGCONT, after which the event loop reads them first). QUOTA3_FOR=MS lifts the quota
# MS ms into the flood (default: at the flood's end). JVM 3 starts and warms up unthrottled. Each
# round then adds a QUOTA line: the periods JVM 3 was throttled in and for how long (cpu.stat).
# Only small quotas starve it past max-wait (1 s) as on the starved host of L-6: QUOTA3=20/1000
# LIMIT=1000 ROUNDS=reload-deny TRACE=1 gives share bets Redis refuses in ~40% of passes (BENCHMARKS.md
# section 7, h-quota); 100-300 ms a period gives none.
# DROP_EVERY=S resets the connections every S seconds in round drop (default 1; 2 leaves a
# reconnect slower than max-wait, 1 s, time to be made before the next reset).
# Rounds dead-behind-proxy (Redis killed by its pid while the proxy in front of it keeps taking
# connections and resetting them, as HAProxy, Envoy or a cloud load balancer in front of a dead
# Redis do; started again, empty, DEAD_FOR seconds later) and unreachable (the proxy stops
# listening for DEAD_FOR seconds: refused by the kernel, Redis and its data kept), each with -deny
# and -local: the bound of the local share behind a proxy (the connect timeout, 5 s, after Redis's
# last answer) against on-failure at once. Their flood lasts DEAD_FOR + 8 s (DEAD_FOR=8). With
# TRACE=1 each adds one BOUND line per JVM (benchmarks/redis-fault-timeline.py: who decided during
# the outage, when on-failure first decided after Redis's last answer, when Redis decided again),
# and one SECONDS line per JVM: per second from the fault, admitted (with quota headers: Redis or
# the share) / admitted by on-failure (no headers) / refused / 503.
# Output: benchmarks/results/NAME.txt (one RESULT line per round) and NAME-logs/ (agent logs).
set -euo pipefail
cd "$(dirname "$0")/.."

CONNS=${CONNS:-22}
DURATION=${DURATION:-8}
MANY=${MANY:-133}
LIMIT=${LIMIT:-100}
TIMEOUT=${TIMEOUT:-50ms}
TRACE=${TRACE:-}
STARVE=${STARVE:-}
DROP_EVERY=${DROP_EVERY:-1}
DEAD_FOR=${DEAD_FOR:-8}
CONNS3=${CONNS3:-}
QUOTA3=${QUOTA3:-}
QUOTA3_FOR=${QUOTA3_FOR:-}
AGENT_OPTS=${AGENT_OPTS:-}
trace_opt=; [ -n "$TRACE" ] && trace_opt=-Dtollgate.test.late-trace=true
LADDER=${LADDER:-"20 200 1000 2000 10000"}
ladder=""
for suffix in "" -deny -local; do  # grouped by policy: the JVMs restart only when it changes
  for ms in $LADDER; do ladder="$ladder late$ms$suffix"; done
done
ROUNDS=${ROUNDS:-"flood flood-many late1000-many latency20 latency200 drop stop restart refused refused-light refused-deny refused-deny-light refused-local restart-local$ladder reload-deny sentinel"}
NAME=${NAME:-redis-faults}

agent=${AGENT:-agent/target/tollgate-agent.jar}
app=test-apps/servlet-jakarta/target/servlet-jakarta.jar
classes=agent/target/test-classes
out=benchmarks/results
result=$out/$NAME.txt
logs=$out/$NAME-logs
tools="wrk redis-server redis-cli curl python3 java"
[[ " $ROUNDS " == *" sentinel "* ]] && tools="$tools redis-sentinel"  # the sentinel round only
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "run-redis-faults.sh: $tool is not on the PATH" >&2; exit 1; }
done
[ -f "$agent" ] && [ -f "$app" ] && [ -f "$classes/io/tollgate/testing/redis/FaultyProxy.class" ] || {
  echo "run-redis-faults.sh: build first (see the header)" >&2; exit 1; }
mkdir -p "$out" "$logs"
work=$(mktemp -d)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now_ms() { date +%s%3N; }

pids=(); pids_extra=(); wrk_pids=()
redis_pid=; proxy_pid=
cleanup() {
  for pid in "${wrk_pids[@]}" "${pids[@]}" "${pids_extra[@]}" $redis_pid $proxy_pid; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  for pid in "${wrk_pids[@]}" "${pids[@]}" "${pids_extra[@]}" $redis_pid $proxy_pid; do wait "$pid" 2>/dev/null || true; done
  exec 7>&- 2>/dev/null || true
  if [ -n "$quota_pid" ]; then kill "$quota_pid" 2>/dev/null || true; wait "$quota_pid" 2>/dev/null || true; fi
  # JVM 3 is gone (waited above): the cgroup is empty, and only this run's own is removed
  if [ -n "$quota_cg" ] && [ -d "$quota_cg" ]; then echo -1 > "$quota_cg/cpu.cfs_quota_us" 2>/dev/null || true; rmdir "$quota_cg" || true; fi
  rm -rf "$work"
}
quota_cg=; quota_pid=
trap cleanup EXIT
if [ -n "$QUOTA3" ]; then
  [[ $QUOTA3 =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] && [ "${BASH_REMATCH[2]}" -le 1000 ] \
    && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] || {
    echo "run-redis-faults.sh: QUOTA3=RUN_MS/PERIOD_MS, 1 <= RUN_MS <= PERIOD_MS <= 1000 (got $QUOTA3)" >&2; exit 1; }
  quota_run_us=$((BASH_REMATCH[1] * 1000)); quota_period_us=$((BASH_REMATCH[2] * 1000))
  quota_cg=/sys/fs/cgroup/cpu/tollgate-faults-$$
  mkdir "$quota_cg" 2>/dev/null || { quota_cg=
    echo "run-redis-faults.sh: QUOTA3 needs root and cgroup v1's cpu controller at /sys/fs/cgroup/cpu" >&2; exit 1; }
  echo -1 > "$quota_cg/cpu.cfs_quota_us"  # unthrottled until a flood starts
  echo "$quota_period_us" > "$quota_cg/cpu.cfs_period_us"
fi
# quota_on / quota_off: JVM 3's CFS quota from the flood's start (for QUOTA3_FOR ms if given)
quota_throttled() { awk '{ v[$1] = $2 } END { printf "%d %d %d", v["nr_periods"], v["nr_throttled"], v["throttled_time"] / 1e6 }' "$quota_cg/cpu.stat"; }
quota_on() {
  quota_before=$(quota_throttled)
  echo "$quota_run_us" > "$quota_cg/cpu.cfs_quota_us"
  if [ -n "$QUOTA3_FOR" ]; then
    ( sleep "$(python3 -c "print($QUOTA3_FOR / 1000)")"; echo -1 > "$quota_cg/cpu.cfs_quota_us" ) &
    quota_pid=$!
  fi
}
quota_off() {
  if [ -n "$quota_pid" ]; then kill "$quota_pid" 2>/dev/null || true; wait "$quota_pid" 2>/dev/null || true; quota_pid=; fi
  echo -1 > "$quota_cg/cpu.cfs_quota_us"
  local after; after=$(quota_throttled)
  read -r p0 t0 ms0 <<< "$quota_before"; read -r p1 t1 ms1 <<< "$after"
  echo "QUOTA round=$round jvm=3 quota=$QUOTA3 for_ms=${QUOTA3_FOR:-flood} periods=$((p1 - p0)) throttled_periods=$((t1 - t0)) throttled_ms=$((ms1 - ms0))" | tee -a "$result"
}

redis_port=$(free_port)
start_redis() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    --logfile "$work/redis.log" &
  redis_pid=$!
  until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.05; done
}
start_redis

proxy_port=$(free_port)
mkfifo "$work/proxy.in"
java -cp "$classes" io.tollgate.testing.redis.FaultyProxy "$proxy_port" "$redis_port" \
  < "$work/proxy.in" > "$work/proxy.out" 2>&1 &
proxy_pid=$!
exec 7> "$work/proxy.in"
proxy() { echo "$*" >&7; }
until grep -q "^proxy" "$work/proxy.out"; do sleep 0.05; done

app_ports=()
# start_apps URI POLICY: three JVMs on the rules file for URI and POLICY
rules=
start_apps() {
  local uri=$1 policy=$2
  rules=$work/rules-$2-$RANDOM.yaml
  cat > "$rules" <<EOF
backend: redis
redis:
  uri: $uri
  timeout: $TIMEOUT
rules:
  - name: flood
    match: { path: /hello }
    key: header:K
    limit: $LIMIT
    period: 1h
    on-failure: $policy
EOF
  app_ports=(); pids=(); started=$round
  for i in 1 2 3; do
    local port; port=$(free_port)
    PORT=$port java -Xmx256m $trace_opt $AGENT_OPTS -javaagent:"$agent"=config="$rules" -jar "$app" \
      > "$logs/$round-jvm$i.log" 2>&1 &
    pids+=($!); app_ports+=("$port")
  done
  # JVM 3, every thread it has and will start, in its own cpu cgroup (quota off until a flood)
  if [ -n "$quota_cg" ]; then echo "${pids[2]}" > "$quota_cg/cgroup.procs"; fi
  for port in "${app_ports[@]}"; do
    until curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1; do sleep 0.1; done
  done
  # one heartbeat (5 s) so that every JVM has counted the three (a change of the count rebuilds
  # the local share, full), then warm up each JVM's path (another key: the round's bucket is fresh)
  sleep 6
  for port in "${app_ports[@]}"; do
    KEY=warm wrk -t1 -c4 -d2s -s benchmarks/redis-faults.lua "http://127.0.0.1:$port/hello" >/dev/null
  done
}
stop_apps() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

# first_redis_answer: ms from now until JVM 1 answers with quota headers (decided by Redis)
first_redis_answer() {
  local start; start=$(now_ms); local i=0
  while true; do
    i=$((i + 1))
    if curl -s --max-time 30 -D - -o /dev/null -H "K: probe-$round-$i" "http://127.0.0.1:${app_ports[0]}/hello" \
        | grep -qi '^RateLimit:'; then
      echo $(( $(now_ms) - start )); return
    fi
    if [ $(( $(now_ms) - start )) -gt 30000 ]; then echo ">30000"; return; fi
  done
}

# flood KEY: wrk on the three JVMs at once, in the background; its summaries go to $work/wrk-*
flood() {
  local j=0; wrk_pids=()
  for port in "${app_ports[@]}"; do
    j=$((j + 1))
    local c=${2:-$CONNS}; [ "$j" = 3 ] && [ -n "$CONNS3" ] && c=$CONNS3
    PER_SECOND=$per_second KEY=$1 wrk -t1 -c"$c" -d"${duration}s" --timeout 10s -s benchmarks/redis-faults.lua \
      "http://127.0.0.1:$port/hello" > "$work/wrk-$j.txt" 2>&1 &
    wrk_pids+=($!)
  done
  # a path no rule matches, beside the flood: what a slow Redis costs the rest of the app
  KEY=unmatched wrk -t1 -c2 -d"${duration}s" --timeout 10s -s benchmarks/redis-faults.lua \
    "http://127.0.0.1:${app_ports[0]}/health" > "$work/unmatched.txt" 2>&1 &
  wrk_pids+=($!)
}

# trace_lines: per JVM, its 200s and the round key's late-trace counts at the flood's end and last
trace_lines() {
  local j=0
  for port in "${app_ports[@]}"; do
    j=$((j + 1))
    # sed -n 1p, not head -1: head stops reading, and under pipefail the writer's SIGPIPE ends the run
    local ok; ok=$(sed -n 's/^WRK ok=\([0-9]*\).*/\1/p' "$work/wrk-$j.txt" | sed -n 1p)
    local log="$logs/$started-jvm$j.log"
    # the ledger names the key as stored (hashed): the one with the most decisions made during the
    # flood (not the first printed after its start: the warm-up key's late replies can come then)
    local lines at_end last
    lines=$(grep "late-trace ms=" "$log" | awk -v start="$flood_start" '{ split($3, m, "="); if (m[2] >= start) print }' || true)
    local stored; stored=$(grep "late-trace ms=" "$log" | awk -v start="$flood_start" '
      { n = 0; key = ""; ms = 0
        for (i = 1; i <= NF; i++) {
          split($i, kv, "=")
          if (kv[1] == "ms") ms = kv[2]
          else if (kv[1] == "key") key = kv[2]
          else if (kv[1] ~ /^(in_time_granted|in_time_refused|credit|share_bet|covered_bet|share_refused|held_share_admits|held_share_refuses)$/) n += kv[2]
        }
        if (ms < start) before[key] = n; else during[key] = n - before[key] }
      END { for (k in during) if (best == "" || during[k] > during[best]) best = k; print best }' || true)
    lines=$(echo "$lines" | grep " key=$stored " || true)
    at_end=$(echo "$lines" | awk -v end="$flood_end" '{ split($3, m, "="); if (m[2] <= end) line = $0 } END { print line }' | sed 's/.*key=[^ ]* //')
    last=$(echo "$lines" | tail -1 | sed 's/.*key=[^ ]* //')
    echo "TRACE round=$round jvm=$j admitted=$ok flood_ms=$((flood_end - flood_start)) | at_end: $at_end | last: $last" | tee -a "$result"
  done
}

# bound_lines: per JVM, who decided through the outage (from $fault_ms to $back_ms), and per second
# from the fault what its flood was answered
bound_lines() {
  local j=0
  for port in "${app_ports[@]}"; do
    j=$((j + 1))
    echo "BOUND round=$round jvm=$j $(python3 benchmarks/redis-fault-timeline.py "$logs/$started-jvm$j.log" "$fault_ms" "$back_ms")" | tee -a "$result"
    echo "SECONDS round=$round jvm=$j from_fault(s):admitted/by_on_failure/refused/503 $(awk -v f=$((fault_ms / 1000)) '
      /^WRKSEC/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf " %+d:%d/%d/%d/%d", v["t"] - f, v["ok"], v["fallback"], v["refused"], v["unavailable"] }' "$work/wrk-$j.txt")" | tee -a "$result"
  done
}

unmatched_p99() {
  sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' "$work/unmatched.txt" | head -1
}

# reload_timeouts: six reloads of the rules file that change only redis.timeout, 1.2 s apart
reload_timeouts() {
  for t in 60ms 70ms 80ms 90ms 100ms $TIMEOUT; do
    sed "s/^  timeout: .*/  timeout: $t/" "$rules" > "$rules.new" && mv "$rules.new" "$rules"
    sleep 1.2
  done
}

sum_wrk() {
  python3 - "$work"/wrk-*.txt <<'EOF'
import re, sys
tot = {}; mx = 0.0; p99 = 0.0
for path in sys.argv[1:]:
    for line in open(path):
        if line.startswith("WRK "):
            for k, v in re.findall(r"(\w+)=([\d.]+)", line):
                if k == "max_ms": mx = max(mx, float(v))
                elif k == "p99_ms": p99 = max(p99, float(v))
                else: tot[k] = tot.get(k, 0) + int(v)
print("admitted=%d fellback=%d refused=%d unavailable=%d errors=%d longest_ms=%.0f p99_ms=%.0f" % (
    tot.get("ok", 0), tot.get("fallback", 0) + tot.get("unavailable", 0), tot.get("refused", 0),
    tot.get("unavailable", 0), tot.get("errors", 0), mx, p99))
EOF
}

: > "$result"
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); CONNS=$CONNS DURATION=$DURATION LIMIT=$LIMIT TIMEOUT=$TIMEOUT agent=$agent${AGENT_OPTS:+ opts=$AGENT_OPTS}${QUOTA3:+ QUOTA3=$QUOTA3${QUOTA3_FOR:+ QUOTA3_FOR=$QUOTA3_FOR}}" | tee -a "$result"
current=""
for round in $ROUNDS; do
  conns=$CONNS
  name=$round
  if [[ $name == *-light ]]; then conns=2; name=${name%-light}; fi
  if [[ $name == *-many ]]; then conns=$MANY; name=${name%-many}; fi
  case $name in
    *-local) policy=local ;; *-deny) policy=deny ;; *) policy=allow ;;
  esac
  fault=${name%-local}; fault=${fault%-deny}
  if [ "$fault" = sentinel ]; then continue; fi
  if [ "$current" != "$policy" ]; then
    stop_apps; start_apps "redis://127.0.0.1:$proxy_port" "$policy"; current=$policy
  fi
  key="$round-$RANDOM"
  rm -f "$work"/wrk-*.txt
  duration=$DURATION; per_second=
  case $fault in dead-behind-proxy|unreachable) duration=$((DEAD_FOR + 8)); per_second=1 ;; esac
  # a slow Redis from the round's first request: the key's whole budget is decided while slow
  case $fault in late*) proxy delay "${fault#late}"; sleep 0.2 ;; esac
  flood_start=$(now_ms)
  flood "$key" "$conns"
  if [ -n "$quota_cg" ]; then quota_on; fi
  if [ -n "$STARVE" ]; then  # JVM 3 stopped and let run in turn at the flood's start
    python3 - "${pids[2]}" "$STARVE" "${STARVE_STOP:-80}" "${STARVE_RUN:-40}" <<'EOF2'
import os, signal, sys, time
pid, total, stop, run = int(sys.argv[1]), *(float(a) / 1000 for a in sys.argv[2:])
end = time.monotonic() + total
try:
    while time.monotonic() < end:
        time.sleep(run)
        os.kill(pid, signal.SIGSTOP); time.sleep(stop)
        os.kill(pid, signal.SIGCONT)
finally:
    os.kill(pid, signal.SIGCONT)
EOF2
    sleep "$(python3 -c "print(max(0, 2 - $STARVE / 1000))")"
  else
    sleep 2
  fi
  recovery=-
  case $fault in
    flood) ;;
    latency20) proxy delay 20 ;;
    latency200) proxy delay 200 ;;
    drop) for s in 1 2 3 4 5; do proxy drop; sleep "$DROP_EVERY"; done ;;
    stop) kill -STOP "$redis_pid"; sleep 3; kill -CONT "$redis_pid"; recovery=$(first_redis_answer) ;;
    restart) kill -9 "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; sleep 3; start_redis
      recovery=$(first_redis_answer) ;;
    late*) ;;
    reload) reload_timeouts ;;
    refused) proxy refuse on; sleep 3; proxy refuse off; recovery=$(first_redis_answer) ;;
    dead-behind-proxy) fault_ms=$(now_ms); kill -9 "$redis_pid"; wait "$redis_pid" 2>/dev/null || true
      sleep "$DEAD_FOR"; back_ms=$(now_ms); start_redis; recovery=$(first_redis_answer) ;;
    unreachable) fault_ms=$(now_ms); proxy refuse on; sleep "$DEAD_FOR"; back_ms=$(now_ms)
      proxy refuse off; recovery=$(first_redis_answer) ;;
  esac
  wait "${wrk_pids[@]}"
  flood_end=$(now_ms)
  if [ -n "$quota_cg" ]; then quota_off; fi
  proxy delay 0
  # replies held by the proxy still come in order: let them drain before the next round
  case $fault in late*) sleep $(( ${fault#late} / 1000 + 1 )) ;; esac
  extra=
  if [ "$fault" = reload ]; then  # what the JVMs' logs say of the reloads (the watcher applies a
    # content once two polls read it, so a change that did not hold still for a poll is skipped)
    extra=" reloads_applied=$(cat "$logs/$started"-jvm*.log | grep -c 'the connection and every count are kept' || true)"
    extra="$extra counts_afresh=$(cat "$logs/$started"-jvm*.log | grep -c 'counts start afresh' || true)"
  fi
  line="RESULT round=$round policy=$policy conns=$((conns * 3)) limit=$LIMIT $(sum_wrk) unmatched_p99_ms=$(unmatched_p99) recovery_ms=$recovery$extra"
  echo "$line" | tee -a "$result"
  if [ -n "$TRACE" ]; then sleep 0.5; trace_lines
    case $fault in dead-behind-proxy|unreachable) bound_lines ;; esac
  fi
done
stop_apps

if [[ " $ROUNDS " == *" sentinel "* ]]; then
  round=sentinel
  replica_port=$(free_port); sentinel_port=$(free_port)
  redis-server --port "$replica_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    --replicaof 127.0.0.1 "$redis_port" --logfile "$work/replica.log" &
  pids_extra=($!)
  cat > "$work/sentinel.conf" <<EOF
port $sentinel_port
bind 127.0.0.1
sentinel monitor bench 127.0.0.1 $redis_port 1
sentinel down-after-milliseconds bench 1000
sentinel failover-timeout bench 5000
EOF
  redis-sentinel "$work/sentinel.conf" > "$work/sentinel.log" 2>&1 &
  pids_extra+=($!)
  until [ "$(redis-cli -p "$replica_port" info replication | grep -c 'master_link_status:up')" = 1 ]; do sleep 0.1; done
  until redis-cli -p "$sentinel_port" sentinel get-master-addr-by-name bench >/dev/null 2>&1; do sleep 0.1; done
  start_apps "redis-sentinel://127.0.0.1:$sentinel_port/0#bench" allow
  rm -f "$work"/wrk-*.txt
  flood "sentinel-$RANDOM"
  sleep 2
  kill -9 "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; redis_pid=
  killed=$(now_ms)
  recovery=$(first_redis_answer)
  wait "${wrk_pids[@]}"
  echo "RESULT round=sentinel policy=allow limit=$LIMIT $(sum_wrk) recovery_ms_after_kill=$recovery" | tee -a "$result"
  stop_apps
  for pid in "${pids_extra[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
fi
proxy quit || true
