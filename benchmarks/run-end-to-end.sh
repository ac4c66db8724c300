#!/usr/bin/env bash
# End-to-end HTTP overhead: wrk (keep-alive, closed loop) against GET /hello of a test app,
#   none    - without the agent
#   rule    - with the agent and one rule that matches /hello and never refuses (e2e-rules.yaml)
#   rule-noheaders - as rule, with headers: none (no RateLimit headers on responses)
#   refused - a flood's common case: the rule of rule at one request an hour (e2e-rules-refused.yaml),
#              so that every request after the first (the start-up check's) is refused: a 429 with
#              Retry-After, Cache-Control, Tollgate-Rule, the quota headers and the problem+json
#              body, in place of the servlet's 200
#   refused-baseline - as refused, with the earlier build of the agent that rule-baseline uses;
#              added to every run that has refused (BASELINE=0 leaves it out)
#   nomatch - with the agent and one rule that matches nothing wrk sends (e2e-rules-nomatch.yaml)
#   nomatch-baseline - as nomatch, with the earlier build of the agent that rule-baseline uses
#                (BASELINE_AGENT; not added by itself: name it)
#   rules-N - as rule, in a file of N rules (benchmarks/rules-file.sh N, written to RES): N-1
#              per-tenant limits on /tenants/tI/** and the rule of rule last, so that rules-1 is
#              rule and rules-10000 asks what a long rules file costs each request (issue 29 item 4)
#   bucket4j - no agent; instead the app's hand-written Bucket4j filter (one bucket per client IP
#              in a ConcurrentHashMap, 429 when empty; same limit as the rule): a servlet filter
#              on servlet-jakarta, a OncePerRequestFilter bean on spring-boot3
#   bucket4j-draft - as bucket4j, sending the rule's two quota headers (RateLimit-Policy and
#              RateLimit, the same bytes as the rule's) instead of X-Rate-Limit-Remaining: the
#              filter and the rule on the same response (servlet-jakarta only)
#   bucket4j-padded - as bucket4j, its one header padded to the two quota headers' bytes: the
#              rule's response size with one header, to tell the headers' work from their bytes
#              (servlet-jakarta only)
#   bucket4j-caffeine - as bucket4j, with the buckets in a Caffeine cache bounded like Tollgate's
#              (servlet-jakarta only)
#   redis   - as rule, with backend: redis (e2e-rules-redis.yaml) on REDIS_URL, or on a redis-server
#              this script starts on port REDIS_PORT (default 16399; pinned beside wrk, off the
#              server's core)
#   redis-lease - as redis, with lease-tokens: 100 (e2e-rules-redis-lease.yaml): one hot key takes
#              100 tokens per round trip; with KEYS=many every decision is still a round trip
#   redis-batch - as redis, with decisions that come together sharing calls
#              (-Dtollgate.redis.batch=true: RedisBatcher, off by default; 4 calls in flight)
#   redis-windowN - as redis-batch, with N calls of batched decisions in flight instead of 4
#              (-Dtollgate.redis.batch.window=N; redis-window1: one batch at a time)
#   redis-nobatch - as redis (each decision a call of its own, the default), saying so on the
#              command line (-Dtollgate.redis.batch=false)
#   redis-baseline - as redis, with the earlier build of the agent that rule-baseline uses
#   redis-lease-baseline - as redis-lease, with that earlier build: added to every run that has
#              redis-lease (BASELINE=0 leaves it out; name it to have it anyway)
#   bucket4j-lettuce - as bucket4j, with the buckets on that Redis through Bucket4j's Lettuce proxy
#              manager (servlet-jakarta only)
#   rule-baseline - as rule, with an earlier build of the agent, to compare two builds in the same
#              run: $BASELINE_AGENT, or else the agent built at $BASELINE_REF (default: the commit
#              before HEAD, or HEAD itself when agent/ has uncommitted changes) in a scratch
#              worktree, kept in benchmarks/target/baseline/ by commit. Added to every run that has
#              rule and not rule-baseline (BASELINE=0 leaves it out), so that a change that makes
#              the request path slower shows in the next benchmark
#   none-again - exactly as none: an A/A check of the alternation itself
# KEYS=many: wrk names one of 10,000 clients per request in X-Client (benchmarks/wrk-many-keys.lua)
# and the rules (e2e-rules-many.yaml, e2e-rules-redis-many.yaml, e2e-rules-refused-many.yaml:
# each client refused after its first request) and the Bucket4j filter key by that header; the
# default, KEYS=one, is wrk's one address: one hot key.
# Modes alternate within each round, their order turned by one place each round (round 1: none,
# rule, nomatch; round 2: rule, nomatch, none; ...), as in run-startup.sh. Each start is a
# fresh JVM, then warm-up until the JIT has settled: wrk in 5 s slices, at least WARMUP s, until
# the JVM's compiler threads used at most JIT_QUIET_MS of CPU in a slice (at most WARMUP_MAX s;
# the summary marks a run that never settled). Then DURATION s measured with --latency.
# A JIT still compiling costs tens of µs of CPU per request on 2 cores, more than anything measured
# here, and the agent's extra code takes longer to compile: with a fixed 10 s warm-up the same build
# measured anywhere from 53% to 100% of the bare app (see benchmarks/HISTORY.md, section 3).
# ALTERNATE=P: in each round every mode's JVM is started at once (ports PORT, PORT+1, ...) and
# warmed, then P passes in which each mode is measured for DURATION s in turn, the order turned each
# pass; each pass is a paired comparison made in the same minute (files ...-rR.P.txt). Without it,
# each round starts and measures one mode after the other.
# TOGETHER=1 (with ALTERNATE=P): in each pass every mode is measured at the same time, one wrk
# each, for DURATION s, instead of in turn; each mode's JVM in a cpu cgroup of its own with equal
# shares (cgroup v1 `cpu`, /sys/fs/cgroup/cpu/tollgate-e2e-PORT; root needed, else thread-level
# fair share and a warning), all on CPU 0 with PIN=1. The modes then share one core half and half
# (a quarter each for four) through the very same seconds, so a slowdown of the machine (a VM's
# neighbours, which this VM does not report as steal time) falls on each alike: a pass's
# requests ratio is the modes' throughput at equal CPU, and its CPU-per-request ratio is read
# over the same instants. The time-slicing costs each mode its caches at every switch (a few
# ms); that is the same for every mode, but it is not the one-core figure alone: read it beside
# ALTERNATE's turns. Each file's "cpu share" line gives the server's CPU over the slice, to check
# that the modes did get equal shares. A first pass of all the modes at once is run and not kept.
# The modes are warmed in the order they started, turned each round, as with ALTERNATE alone.
# Loopback only (127.0.0.1). With PIN=1 (the default on 2 or more cores) the server runs on CPU 0
# and wrk on CPU 1 (taskset), so that neither takes the other's core: the server's throughput is
# then what one core gives, and its CPU per request decides it. With PIN=same both run on CPU 0:
# no wake-up crosses cores (on a VM each such wake-up of an idle core is an inter-processor
# interrupt, which the sender pays), and the throughput is what one core gives server and wrk.
# Besides wrk's figures, the server's CPU time per request over the measured run (from
# /proc/PID/stat), split into the JIT compiler threads' share and the rest (/proc/PID/task/*), and
# its context switches per request (benchmarks/threads-under-load.sh says which threads make them).
# With a redis-server of its own (the redis modes without REDIS_URL), also that server's CPU time
# per request over the measured run, and its commands (INFO commandstats, reset before the run):
# on one core (PIN=same) Redis takes its CPU from the same core as the server and wrk.
# `run-end-to-end.sh --summary RESULTS_DIR [APP]` runs nothing: it makes the summary again from
# RESULTS_DIR/e2e-APP-runs.txt (APP default servlet-jakarta), e.g. of a run stopped before its end.
set -euo pipefail
cd "$(dirname "$0")/.."
# The summary of the runs listed in $RES/e2e-$APP-runs.txt (this run's, or with --summary an
# earlier one's, also one stopped before its end): each run, then a table of the medians,
# written to $RES/e2e-$APP-summary.txt and printed.
summarize() {
python3 - "$RES/e2e-$APP-runs.txt" "$APP" >"$RES/e2e-$APP-summary.txt" <<'PY'
import sys, re, statistics, collections
def ms(v):
    n, u = re.match(r'([\d.]+)(us|ms|s)', v).groups(); return float(n) * {'us': 1e-3, 'ms': 1, 's': 1e3}[u]
rows = collections.defaultdict(list); order = []; redis_us = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith('#'): print(line.strip()); continue
    mode, r, f = line.split(); t = open(f).read()
    rps = float(re.search(r'Requests/sec:\s+([\d.]+)', t).group(1))
    p50 = ms(re.search(r'\s50%\s+(\S+)', t).group(1)); p99 = ms(re.search(r'\s99%\s+(\S+)', t).group(1))
    bad = re.search(r'Non-2xx or 3xx responses: (\d+)', t); errs = re.search(r'Socket errors: (.*)', t)
    reqs = int(re.search(r'(\d+) requests in', t).group(1))
    cpu = re.search(r'server CPU ticks: (\d+) of 1/(\d+) s', t)
    us = 1e6 * int(cpu.group(1)) / int(cpu.group(2)) / reqs if cpu else float('nan')
    rcpu = re.search(r'redis-server CPU ticks: (\d+) of 1/(\d+) s', t)
    rus = 1e6 * int(rcpu.group(1)) / int(rcpu.group(2)) / reqs if rcpu else None
    if rus is not None: redis_us[mode].append(rus)
    jit = re.search(r'JIT compiler threads CPU ticks: (\d+) of 1/(\d+) s', t)
    jus = 1e6 * int(jit.group(1)) / int(jit.group(2)) / reqs if jit else float('nan')
    warm = re.search(r'warm-up: (.*)', t)
    cs = re.search(r'server context switches: (\d+)', t)
    csr = int(cs.group(1)) / reqs if cs else float('nan')
    rows[mode].append((rps, p50, p99, us, us - jus, csr)); order.append(mode) if mode not in order else None
    print(f"{mode:8s} round {r}: {rps:10.0f} req/s  p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  CPU {us:6.1f} us/req"
          + f" (JIT {jus:4.1f})" + f"  switches {csr:5.2f}/req" + (f"  redis-server CPU {rus:5.1f} us/req" if rus is not None else "") + (f"  [{warm.group(1)}]" if warm else "")
          + ((f"  refused (429) {bad.group(1)} of {reqs}" if mode.startswith('refused') else f"  NON-2XX {bad.group(1)}") if bad else "") + (f"  socket errors: {errs.group(1)}" if errs else ""))
print()
# the reference: the bare app, or in a run without it (the Redis runs) the local rule
ref = 'none' if 'none' in rows else 'rule' if 'rule' in rows else None
print(f"| {sys.argv[2]} | req/s (median of rounds) | vs {ref} | p50 ms | vs {ref} | p99 ms | vs {ref} | server CPU µs/req | vs {ref} | of which not JIT | vs {ref} | context switches/req | req/s vs {ref}, round by round |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
base = [statistics.median(x) for x in zip(*rows[ref])] if ref else None
for mode in order:
    m = [statistics.median(x) for x in zip(*rows[mode])]
    rel = (lambda i: f"{100*m[i]/base[i]:.1f}%") if base else (lambda i: "-")
    per = (", ".join(f"{100*a[0]/b[0]:.0f}%" for a, b in zip(rows[mode], rows[ref]))
           if base and len(rows[mode]) == len(rows[ref]) else "-")
    print(f"| {mode} | {m[0]:,.0f} | {rel(0)} | {m[1]:.3f} | {rel(1)} | {m[2]:.3f} | {rel(2)} | {m[3]:.1f} | {rel(3)} | {m[4]:.1f} | {rel(4)} | {m[5]:.2f} | {per} |")
# Paired: each round (or with ALTERNATE each pass) compares the modes measured in the same
# minutes; the median of those ratios, and its spread, reads a few percent where the medians of
# the modes, each over rounds whose machine moved by 10-30%, do not.
def paired(a, b, i):
    return [x[i] / y[i] for x, y in zip(rows[a], rows[b])] if len(rows[a]) == len(rows[b]) else []
refs = [m for m in (ref, 'bucket4j', 'bucket4j-draft') if m in rows]
for other in refs:
    print()
    print(f"| paired with {other} | req/s ratio, median | lowest-highest | rounds at or above 0.98 | server CPU (not JIT) ratio, median | lowest-highest |")
    print("|---|---|---|---|---|---|")
    for mode in order:
        if mode == other: continue
        q = paired(mode, other, 0); c = paired(mode, other, 4)
        if not q: continue
        print(f"| {mode} | {statistics.median(q):.3f} | {min(q):.2f}-{max(q):.2f} | {sum(x >= 0.98 for x in q)} of {len(q)} | {statistics.median(c):.3f} | {min(c):.2f}-{max(c):.2f} |")
if redis_us:
    print()
    print("| mode | redis-server CPU µs/req (median of rounds) | by round |")
    print("|---|---|---|")
    for mode in order:
        if redis_us[mode]:
            print(f"| {mode} | {statistics.median(redis_us[mode]):.1f} | {', '.join(f'{x:.1f}' for x in redis_us[mode])} |")
PY
cat "$RES/e2e-$APP-summary.txt"
}
if [ "${1:-}" = --summary ]; then # --summary RESULTS_DIR [APP]: no runs, only the summary
  RES=${2:?usage: run-end-to-end.sh --summary RESULTS_DIR [APP]}; APP=${3:-servlet-jakarta}
  summarize
  exit
fi
APP=${1:-servlet-jakarta}; ROUNDS=${2:-2}; shift 2 || shift $# || true
MODES=("$@"); [ ${#MODES[@]} -gt 0 ] || MODES=(none rule nomatch)
WARMUP=${WARMUP:-20}; WARMUP_MAX=${WARMUP_MAX:-120}; JIT_QUIET_MS=${JIT_QUIET_MS:-50}
DURATION=${DURATION:-15}; THREADS=${THREADS:-2}; CONNS=${CONNS:-32}
PIN=${PIN:-$([ "$(nproc)" -ge 2 ] && echo 1 || echo 0)}
SERVER_CPU=(); WRK_CPU=()
[ "$PIN" = 1 ] && { SERVER_CPU=(taskset -c 0); WRK_CPU=(taskset -c 1); }
[ "$PIN" = same ] && { SERVER_CPU=(taskset -c 0); WRK_CPU=(taskset -c 0); }
PORT=${PORT:-18091}; BASE_PORT=$PORT
ALTERNATE=${ALTERNATE:-0}
TOGETHER=${TOGETHER:-0}
CGROUP_ROOT=/sys/fs/cgroup/cpu
if [ "$TOGETHER" = 1 ]; then
  [ "$ALTERNATE" -gt 0 ] || { echo "TOGETHER=1 needs ALTERNATE=P (the passes)" >&2; exit 1; }
  if ! mkdir -p "$CGROUP_ROOT/tollgate-e2e-probe" 2>/dev/null; then
    echo "warning: no cpu cgroup (need root and cgroup v1's cpu controller at $CGROUP_ROOT):" \
      "the modes share the core thread by thread, not JVM by JVM" >&2
    CGROUP_ROOT=""
  else
    rmdir "$CGROUP_ROOT/tollgate-e2e-probe"
  fi
fi
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
JAR=test-apps/$APP/target/$APP.jar
URL=http://127.0.0.1:$PORT/hello
RES=${RES:-benchmarks/results}
mkdir -p "$RES"
JAVA_OPTS=${JAVA_OPTS:--Xms512m -Xmx512m}
# Every run that measures the rule measures the previous build's rule beside it.
if [[ " ${MODES[*]} " == *" rule "* && " ${MODES[*]} " != *" rule-baseline "* && "${BASELINE:-1}" != 0 ]]; then
  MODES+=(rule-baseline)
fi
if [[ " ${MODES[*]} " == *" redis "* && " ${MODES[*]} " != *" redis-baseline "* && "${BASELINE:-1}" != 0 ]]; then
  MODES+=(redis-baseline)
fi
if [[ " ${MODES[*]} " == *" redis-lease "* && " ${MODES[*]} " != *" redis-lease-baseline "* && "${BASELINE:-1}" != 0 ]]; then
  MODES+=(redis-lease-baseline)
fi
if [[ " ${MODES[*]} " == *" refused "* && " ${MODES[*]} " != *" refused-baseline "* && "${BASELINE:-1}" != 0 ]]; then
  MODES+=(refused-baseline)
fi
if [[ " ${MODES[*]} " == *"-baseline "* && -z "${BASELINE_AGENT:-}" ]]; then
  if [ -z "${BASELINE_REF:-}" ]; then
    BASELINE_REF=HEAD~1
    git diff --quiet HEAD -- agent agent-bootstrap || BASELINE_REF=HEAD
  fi
  sha=$(git rev-parse --short "$BASELINE_REF")
  BASELINE_AGENT=benchmarks/target/baseline/tollgate-agent-$sha.jar
  if [ ! -f "$BASELINE_AGENT" ]; then
    echo "building the baseline agent at $BASELINE_REF ($sha)..." >&2
    scratch=$(mktemp -d)
    git worktree add -q --detach "$scratch" "$sha"
    (cd "$scratch" && mvn -o -B -q -pl agent -am package -DskipTests >"$scratch.log" 2>&1) ||
      { cat "$scratch.log" >&2; git worktree remove --force "$scratch"; exit 1; }
    mkdir -p benchmarks/target/baseline
    cp "$scratch/agent/target/tollgate-agent.jar" "$BASELINE_AGENT"
    git worktree remove --force "$scratch"
  fi
  echo "rule-baseline, redis-baseline, redis-lease-baseline, refused-baseline: $BASELINE_AGENT (${BASELINE_REF:-given})" >&2
fi
KEYS=${KEYS:-one}
WRK_SCRIPT=(); MANY=""; FILTER_KEY=()
if [ "$KEYS" = many ]; then
  WRK_SCRIPT=(-s benchmarks/wrk-many-keys.lua); MANY=-many; FILTER_KEY=(-Dtestapp.bucket4j.key=X-Client)
fi
# The apps this script started and has not stopped: stopped when it ends, however it ends (a
# start that failed, a port already served, Ctrl-C), so that no idle JVM is left holding a port
# and memory for the next run to trip over.
STARTED_APPS=()
stop_started_apps() {
  local p
  for p in "${STARTED_APPS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${STARTED_APPS[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop_started_apps EXIT
# Redis for the modes that need one: REDIS_URL, or a server of our own, ended when the script ends.
REDIS_PID=""
REDIS_PORT=${REDIS_PORT:-16399}
if [[ " ${MODES[*]} " == *" redis"* || " ${MODES[*]} " == *" bucket4j-lettuce "* ]] && [ -z "${REDIS_URL:-}" ]; then
  # a server still shutting down on the port (a run just before this one's): wait for it to go
  for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 || break; sleep 0.2; done
  "${WRK_CPU[@]}" redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize no >/tmp/tollgate-e2e-redis.$$.log 2>&1 &
  REDIS_PID=$!
  # ended and waited for, so that a run right after this one finds the port free
  trap 'stop_started_apps; [ -n "$REDIS_PID" ] && { kill $REDIS_PID 2>/dev/null; wait $REDIS_PID 2>/dev/null; } || true' EXIT
  REDIS_URL=redis://127.0.0.1:$REDIS_PORT
  for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  # the ping may have been answered by another server on the port (one still shutting down):
  # the modes would then run on a Redis that goes away, decided by on-failure
  sleep 0.5
  kill -0 "$REDIS_PID" 2>/dev/null || { cat /tmp/tollgate-e2e-redis.$$.log >&2; echo "redis-server did not start on port $REDIS_PORT" >&2; exit 1; }
fi
export REDIS_URL=${REDIS_URL:-}

start_app() { # mode -> sets PID
  local args=()
  # A port some other process already serves would be measured in place of this run's server
  # (a leftover JVM of an earlier run measured at 0.0-0.4 us per request once): refuse to start.
  if curl -s -o /dev/null --max-time 1 "$URL"; then
    echo "port $PORT is already served by another process: stop it, or set PORT" >&2; exit 1
  fi
  case $1 in
    rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules$MANY.yaml) ;;
    redis) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
    redis-lease) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-redis-lease$MANY.yaml) ;;
    redis-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
    # the agent's batching of Redis decisions with another window (redis-window2: 2 calls in
    # flight), or none (redis-nobatch)
    redis-batch) args=(-Dtollgate.redis.batch=true -javaagent:$AGENT=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
    redis-window*) args=(-Dtollgate.redis.batch=true -Dtollgate.redis.batch.window=${1#redis-window} -javaagent:$AGENT=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
    redis-nobatch) args=(-Dtollgate.redis.batch=false -javaagent:$AGENT=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
    redis-lease-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules-redis-lease$MANY.yaml) ;;
    bucket4j-lettuce) args=(-Dtestapp.bucket4j=lettuce "-Dtestapp.bucket4j.redis=$REDIS_URL" "${FILTER_KEY[@]}") ;;
    rule-noheaders) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-noheaders.yaml) ;;
    nomatch) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-nomatch.yaml) ;;
    nomatch-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules-nomatch.yaml) ;;
    rules-[0-9]*)
      [ -s "$RES/rules-${1#rules-}.yaml" ] || benchmarks/rules-file.sh "${1#rules-}" >"$RES/rules-${1#rules-}.yaml"
      args=(-javaagent:$AGENT=config=$RES/rules-${1#rules-}.yaml) ;;
    rule-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules$MANY.yaml) ;;
    refused) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-refused$MANY.yaml) ;;
    refused-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules-refused$MANY.yaml) ;;
    bucket4j) args=(-Dtestapp.bucket4j=map "${FILTER_KEY[@]}") ;;
    bucket4j-draft) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=draft "${FILTER_KEY[@]}") ;;
    bucket4j-padded) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=padded "${FILTER_KEY[@]}") ;;
    bucket4j-caffeine) args=(-Dtestapp.bucket4j=caffeine "${FILTER_KEY[@]}") ;;
  esac
  PORT=$PORT "${SERVER_CPU[@]}" java $JAVA_OPTS "${args[@]}" -jar "$JAR" >"/tmp/tollgate-e2e.$$.$PORT.log" 2>&1 &
  PID=$!
  STARTED_APPS+=("$PID")
  if [ "$TOGETHER" = 1 ] && [ -n "$CGROUP_ROOT" ]; then
    # its own cgroup, default shares (1024) like every other mode's: equal CPU under contention
    mkdir -p "$CGROUP_ROOT/tollgate-e2e-$PORT"
    echo "$PID" >"$CGROUP_ROOT/tollgate-e2e-$PORT/cgroup.procs"
  fi
  for _ in $(seq 1 600); do
    # up: a 200, or in the refused modes the 429 of a request after the first
    case "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" in
      200) return 0 ;;
      429) [[ $1 == refused* ]] && return 0 ;;
    esac
    kill -0 $PID 2>/dev/null || { cat "/tmp/tollgate-e2e.$$.$PORT.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "app did not start" >&2; kill $PID; exit 1
}
stop_app() {
  kill $PID; wait $PID 2>/dev/null || true
  local left=() p
  for p in "${STARTED_APPS[@]}"; do [ "$p" = "$PID" ] || left+=("$p"); done
  STARTED_APPS=("${left[@]}")
  while curl -s -o /dev/null --max-time 1 "$URL"; do sleep 0.1; done
  if [ "$TOGETHER" = 1 ] && [ -n "$CGROUP_ROOT" ]; then rmdir "$CGROUP_ROOT/tollgate-e2e-$PORT" 2>/dev/null || true; fi
  sleep 2
}

HZ=$(getconf CLK_TCK)
# shellcheck source=jit-ticks.sh
. benchmarks/jit-ticks.sh
# shellcheck source=context-switches.sh
. benchmarks/context-switches.sh

FIRST_ROUND=${FIRST_ROUND:-1}
[ "$FIRST_ROUND" -gt 1 ] || : >"$RES/e2e-$APP-runs.txt"
echo "# $(date -u +%FT%TZ) $APP rounds=$ROUNDS modes=${MODES[*]} keys=$KEYS alternate=$ALTERNATE together=$TOGETHER baseline=${BASELINE_AGENT:-none} wrk -t$THREADS -c$CONNS -d${DURATION}s --latency after >= ${WARMUP}s warm-up until the JIT used <= ${JIT_QUIET_MS} ms in 5 s (max ${WARMUP_MAX}s); pinned: $PIN; JAVA_OPTS=$JAVA_OPTS; $(java -version 2>&1 | head -1); $(wrk -v 2>&1 | head -1); load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/e2e-$APP-runs.txt"
warm_up() { # warm the app at $URL (its JVM $PID) until the JIT has settled -> sets warmed, jit_ms
  warmed=0
  while :; do
    jit0=$(jit_ticks)
    "${WRK_CPU[@]}" wrk -t"$THREADS" -c"$CONNS" -d5s "${WRK_SCRIPT[@]}" "$URL" >/dev/null
    warmed=$((warmed + 5))
    jit_ms=$(( ($(jit_ticks) - jit0) * 1000 / HZ ))
    [ $warmed -ge "$WARMUP" ] && [ $jit_ms -le "$JIT_QUIET_MS" ] && { jit_ms="$jit_ms ms"; break; }
    [ $warmed -ge "$WARMUP_MAX" ] && { jit_ms="$jit_ms ms, never settled"; break; }
  done
}
measure() { # mode label: DURATION s of wrk on the app at $URL (its JVM $PID), its figures in a file
  local mode=$1 label=$2 f="$RES/e2e-$APP-$1-r$2.txt"
  if [ -n "$REDIS_PID" ]; then
    redis-cli -p "$REDIS_PORT" config resetstat >/dev/null; rcpu0=$(awk '{print $14 + $15}' /proc/$REDIS_PID/stat)
  fi
  cpu0=$(awk '{print $14 + $15}' /proc/$PID/stat); jit0=$(jit_ticks); cs0=$(context_switches)
  "${WRK_CPU[@]}" wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency "${WRK_SCRIPT[@]}" "$URL" | tee "$f"
  # the server's own CPU time over the measured run (user + system, all its threads): on a
  # shared machine, CPU per request moves less with the neighbours' load than requests/s does
  cpu1=$(awk '{print $14 + $15}' /proc/$PID/stat)
  echo "server CPU ticks: $(( cpu1 - cpu0 )) of 1/$HZ s" >>"$f"
  [ "$TOGETHER" = 1 ] && echo "cpu share: $(( (cpu1 - cpu0) * 100 / (HZ * DURATION) ))% of one core over the ${DURATION} s (modes measured together)" >>"$f"
  echo "JIT compiler threads CPU ticks: $(( $(jit_ticks) - jit0 )) of 1/$HZ s" >>"$f"
  echo "server context switches: $(( $(context_switches) - cs0 ))" >>"$f"
  if [ -n "$REDIS_PID" ]; then
    echo "redis-server CPU ticks: $(( $(awk '{print $14 + $15}' /proc/$REDIS_PID/stat) - rcpu0 )) of 1/$HZ s" >>"$f"
    redis-cli -p "$REDIS_PORT" info commandstats | grep '^cmdstat' >>"$f" || true
  fi
  echo "warm-up: ${warmed} s, the JIT's CPU in its last 5 s: ${jit_ms}" >>"$f"
  # the agent must have refused nothing (but in the refused modes, everything): a response
  # other than the mode's invalidates the run
  curl -s -o /dev/null -w "after run: GET /hello -> %{http_code}\n" "$URL" >>"$f"
  echo "$mode $label $f" >>"$RES/e2e-$APP-runs.txt"
}

for r in $(seq "$FIRST_ROUND" $((FIRST_ROUND + ROUNDS - 1))); do
  if [ "$ALTERNATE" -gt 0 ]; then
    # every mode's JVM up at once, each on its own port, warmed; then ALTERNATE passes in which
    # each takes its turn for DURATION s, the order turned each pass: the machine's drift
    # (neighbours, frequency) falls on every mode alike, and each pass is a paired comparison
    declare -A PIDS=() URLS=() WARMED=() JIT_MS=()
    MEASURING=()
    for k in "${!MODES[@]}"; do
      mode=${MODES[$(( (k + r - 1) % ${#MODES[@]} ))]}
      PORT=$((BASE_PORT + k)); URL=http://127.0.0.1:$PORT/hello
      start_app "$mode"; PIDS[$mode]=$PID; URLS[$mode]=$URL
    done
    # warmed in the order they started, turned each round like it: a JVM warmed first then waits
    # idle while the others warm, and in the tenth session's side-by-side run the mode warmed
    # last (always none-again) came out 4% cheaper than none, warmed first, in all four rounds
    for k in "${!MODES[@]}"; do
      mode=${MODES[$(( (k + r - 1) % ${#MODES[@]} ))]}
      PID=${PIDS[$mode]}; URL=${URLS[$mode]}; warm_up; WARMED[$mode]=$warmed; JIT_MS[$mode]=$jit_ms
    done
    if [ "$TOGETHER" = 1 ]; then
      # one pass not kept, every mode at once: the first kept pass of each round was the noisiest
      # (a JVM idle while the others warmed comes back to work in it)
      for mode in "${MODES[@]}"; do
        "${WRK_CPU[@]}" wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" "${WRK_SCRIPT[@]}" "${URLS[$mode]}" >/dev/null &
        MEASURING+=($!)
      done
      wait "${MEASURING[@]}"; MEASURING=()
    fi
    for p in $(seq 1 "$ALTERNATE"); do
      for k in "${!MODES[@]}"; do
        mode=${MODES[$(( (k + p + r - 2) % ${#MODES[@]} ))]}
        PID=${PIDS[$mode]}; URL=${URLS[$mode]}; warmed=${WARMED[$mode]}; jit_ms=${JIT_MS[$mode]}
        if [ "$TOGETHER" = 1 ]; then
          measure "$mode" "$r.$p" >/dev/null &   # every mode at once; each writes its own file
          MEASURING+=($!)
        else
          measure "$mode" "$r.$p"
        fi
      done
      # only the measurements: a redis-server of this script's is a background job too
      [ ${#MEASURING[@]} -eq 0 ] || wait "${MEASURING[@]}"; MEASURING=()
    done
    for mode in "${MODES[@]}"; do PID=${PIDS[$mode]}; URL=${URLS[$mode]}; stop_app; done
    continue
  fi
  for k in "${!MODES[@]}"; do
    mode=${MODES[$(( (k + r - 1) % ${#MODES[@]} ))]}
    start_app "$mode"
    warm_up
    measure "$mode" "$r"
    stop_app
  done
done
summarize
