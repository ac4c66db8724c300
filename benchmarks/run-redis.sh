#!/usr/bin/env bash
# Redis-mode throughput (BENCHMARKS.md, section 4): decisions per second through
# Tollgate's RedisGcraStore (a token bucket), through redis-benchmark running the same EVALSHA of gcra.lua,
# and through Bucket4j's Lettuce proxy manager, at the same concurrency, on many keys and on one hot
# key. The three sides alternate within each (workload, threads) cell, and their order rotates from
# one round to the next, so that the ratios hold on a noisy machine.
#
# Needs redis-server, redis-cli and redis-benchmark (7.x) on the PATH, python3, GNU time
# (/usr/bin/time, for redis-benchmark's CPU time), and the benchmarks
# jar: build first with  mvn -B package -DskipTests  (from the repository root). Starts its own
# redis-server on a free loopback port, persistence off, and stops it (by its pid) at the end.
#
# Settings (environment): THREADS="1 8 32 64"  WORKLOADS="many-keys hot-key hot-key-refused"
#   ROUNDS=1  WARMUP=3  DURATION=5 (seconds before and of each measurement)  KEYS=100000
#   JIT_WARMUP=10 (seconds each Java side runs once before the first measurement)
#   REDIS_CPUS / CLIENT_CPUS: optional taskset CPU lists to pin redis-server / the load generators.
#   LATENCY_US: when set, every client (Tollgate, redis-benchmark, Bucket4j) reaches Redis through
#     LatencyProxy, which holds each chunk LATENCY_US microseconds in each direction: a stand-in
#     for the network between two hosts on a machine with loopback only (no tc netem). Setup,
#     INFO and the fill still go straight to Redis.
#   NAME=redis: the output files' prefix (e.g. NAME=redis-latency200 for a run with LATENCY_US=100).
# Output: benchmarks/results/NAME-runs.txt (one RESULT line per measurement),
#   NAME-raw.txt (every program's full output, redis-benchmark's CSV, INFO commandstats),
#   NAME-summary.txt (medians and ratios, from benchmarks/redis-table.py).
# About 6.5 minutes per round with the defaults on a busy 2-core machine; an earlier run in benchmarks/HISTORY.md used ROUNDS=3.
set -euo pipefail
cd "$(dirname "$0")/.."

THREADS=${THREADS:-"1 8 32 64"}
WORKLOADS=${WORKLOADS:-"many-keys hot-key hot-key-refused"}
ROUNDS=${ROUNDS:-1}
WARMUP=${WARMUP:-3}
DURATION=${DURATION:-5}
KEYS=${KEYS:-100000}
JIT_WARMUP=${JIT_WARMUP:-10}
REDIS_CPUS=${REDIS_CPUS:-}
CLIENT_CPUS=${CLIENT_CPUS:-}
LATENCY_US=${LATENCY_US:-}
NAME=${NAME:-redis}

jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
runs=$out/$NAME-runs.txt
raw=$out/$NAME-raw.txt

for tool in redis-server redis-cli redis-benchmark python3 java /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "run-redis.sh: $tool is not on the PATH" >&2; exit 1; }
done
if [ ! -f "$jar" ] || ! unzip -l "$jar" io/tollgate/benchmarks/RedisThroughputDriver.class > /dev/null; then
  echo "run-redis.sh: $jar has no RedisThroughputDriver; build first: mvn -B package -DskipTests" >&2
  exit 1
fi
mkdir -p "$out"
work=$(mktemp -d)

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis_pin=(); client_pin=()
if [ -n "$REDIS_CPUS" ]; then redis_pin=(taskset -c "$REDIS_CPUS"); fi
if [ -n "$CLIENT_CPUS" ]; then client_pin=(taskset -c "$CLIENT_CPUS"); fi
# Started directly (not through a function or subshell), so that $! is redis-server's own pid.
"${redis_pin[@]}" redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --dir "$work" --logfile "$work/redis.log" &
redis_pid=$!
monitor_pid=
proxy_pid=
declare -A java_pid=()
cleanup() {
  if [ -n "$proxy_pid" ]; then kill "$proxy_pid" 2>/dev/null || true; fi
  if [ -n "$monitor_pid" ]; then kill "$monitor_pid" 2>/dev/null || true; fi
  for side in "${!java_pid[@]}"; do
    kill "${java_pid[$side]}" 2>/dev/null || true
    wait "${java_pid[$side]}" 2>/dev/null || true
  done
  kill "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cli() { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
for _ in $(seq 100); do
  if [ "$(cli ping 2>/dev/null)" = PONG ]; then break; fi
  sleep 0.1
done
[ "$(cli ping)" = PONG ] || { echo "run-redis.sh: redis-server did not start" >&2; exit 1; }
# Where the clients connect: Redis itself, or the latency proxy in front of it.
client_port=$port
if [ -n "$LATENCY_US" ]; then
  client_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  java -cp "$jar" io.tollgate.benchmarks.LatencyProxy listen="$client_port" \
    target="127.0.0.1:$port" delay-us="$LATENCY_US" > "$work/proxy.log" 2>&1 &
  proxy_pid=$!
  for _ in $(seq 100); do grep -q listening "$work/proxy.log" 2>/dev/null && break; sleep 0.1; done
  grep -q listening "$work/proxy.log" || { echo "run-redis.sh: the latency proxy did not start" >&2; exit 1; }
fi
uri="redis://127.0.0.1:$client_port"

{
  echo "# run-redis.sh $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
  echo "# settings: THREADS='$THREADS' WORKLOADS='$WORKLOADS' ROUNDS=$ROUNDS WARMUP=$WARMUP DURATION=$DURATION KEYS=$KEYS JIT_WARMUP=$JIT_WARMUP REDIS_CPUS='$REDIS_CPUS' CLIENT_CPUS='$CLIENT_CPUS' LATENCY_US='$LATENCY_US'"
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), nproc $(nproc)"
  echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# $(java -version 2>&1 | head -1); $(redis-server --version); $(redis-benchmark --version 2>/dev/null || true)"
} | tee "$runs" > "$raw"

# The script, loaded from the exact bytes the agent sends (common.lua, gcra.lua and
# budgets.lua, as RedisScript composes them; -x: no trailing newline is lost).
java -cp "$jar" io.tollgate.benchmarks.RedisThroughputDriver side=script > "$work/script.lua"
sha=$(cli -x script load < "$work/script.lua")

# The exact EVALSHA Tollgate sends for each bucket shape, seen with MONITOR during one decision.
redis-cli -h 127.0.0.1 -p "$port" monitor > "$work/monitor.txt" &
monitor_pid=$!
sleep 0.3
java -cp "$jar" io.tollgate.benchmarks.RedisThroughputDriver side=probe uri="$uri" >> "$raw" 2>&1
sleep 0.3
kill "$monitor_pid"; wait "$monitor_pid" 2>/dev/null || true
monitor_pid=
python3 - "$work/monitor.txt" "$sha" "$work" <<'EOF' | tee -a "$runs" >> "$raw"
import re, sys
monitor, sha, work = sys.argv[1], sys.argv[2], sys.argv[3]
found = {}
for line in open(monitor, encoding="utf-8", errors="replace"):
    if "[0 lua]" in line or '"EVALSHA"' not in line.upper():
        continue
    args = [re.sub(r'\\(.)', r'\1', a) for a in re.findall(r'"((?:[^"\\]|\\.)*)"', line)]
    # EVALSHA sha numkeys key argv...
    if args[1] != sha:
        sys.exit(f"run-redis.sh: Tollgate sent EVALSHA {args[1]}, but SCRIPT LOAD of the file gave {sha}")
    shape = "refusing" if "{bench-refuse:" in args[3] else "allowing"
    found[shape] = args
for shape in ("allowing", "refusing"):
    if shape not in found:
        sys.exit(f"run-redis.sh: no EVALSHA of the {shape} bucket in MONITOR's output")
    args = found[shape]
    with open(f"{work}/{shape}.key", "w") as f:
        f.write(args[3] + "\n")
    with open(f"{work}/{shape}.argv", "w") as f:
        f.write("".join(a + "\n" for a in args[4:]))
    print(f"# tollgate sends ({shape}): " + " ".join(repr(a) if a == "" else a for a in args))
EOF
mapfile -t allowing_argv < "$work/allowing.argv"
mapfile -t refusing_argv < "$work/refusing.argv"
hot_key=$(cat "$work/allowing.key")
refused_key=$(cat "$work/refusing.key")

# One JVM per side serves all of that side's runs (a line of arguments in, its output and END out,
# through two FIFOs), so that the JIT warms up once over the whole script rather than in each run.
declare -A java_in java_out
start_java() { # side
  mkfifo "$work/$1.in" "$work/$1.out"
  "${client_pin[@]}" java -Xms1g -Xmx1g -cp "$jar" io.tollgate.benchmarks.RedisThroughputDriver \
    serve=true side="$1" uri="$uri" keys="$KEYS" warmup="$WARMUP" duration="$DURATION" \
    < "$work/$1.in" > "$work/$1.out" 2>> "$work/$1.err" &
  java_pid[$1]=$!
  local fd
  exec {fd}> "$work/$1.in"; java_in[$1]=$fd
  exec {fd}< "$work/$1.out"; java_out[$1]=$fd
}

tollgate_or_bucket4j() { # side workload threads [more arguments]
  local side=$1 line fill=true
  if [ -n "${filled[$side]:-}" ]; then fill=false; fi
  echo "## $(date -u +%H:%M:%S) $side $2 threads=$3 ${4:-}" >> "$raw"
  echo "workload=$2 threads=$3 fill=$fill ${4:-}" >&"${java_in[$side]}"
  : > "$work/java.txt"
  while true; do
    if ! IFS= read -r line <&"${java_out[$side]}"; then
      echo "run-redis.sh: the $side driver stopped:" >&2; cat "$work/$side.err" >&2; exit 1
    fi
    [ "$line" = END ] && break
    echo "$line" >> "$work/java.txt"
  done
  cat "$work/java.txt" >> "$raw"
  if grep -q '^ERROR' "$work/java.txt"; then
    echo "run-redis.sh: $side $2 threads=$3 failed:" >&2; cat "$work/java.txt" >&2; exit 1
  fi
  if [ "$round" != 0 ]; then # round 0: the JIT warm-up
    grep '^RESULT' "$work/java.txt" | sed "s/\$/ round=$round/" | tee -a "$runs"
  fi
  filled[$side]=yes
}

redis_benchmark() { # workload threads
  local workload=$1 threads=$2 key argv random=() keys=1
  case $workload in
    many-keys)
      key='tollgate:v2:{bench:__rand_int__}:token-bucket'; argv=("${allowing_argv[@]}"); random=(-r "$KEYS"); keys=$KEYS
      # Every key exists before measuring, as on the other sides: redis-benchmark names them
      # tollgate:v2:{bench:NNNNNNNNNNNN}:token-bucket (12 digits, 0 to KEYS-1). Filled once per round.
      [ -n "${filled[redis-benchmark]:-}" ] || python3 - "$sha" "$KEYS" "${argv[@]}" > "$work/fill.resp" <<'EOF'
import sys
sha, n, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
out = sys.stdout.buffer
def bulk(s):
    b = s.encode()
    return b"$%d\r\n%s\r\n" % (len(b), b)
for i in range(n):
    parts = ["EVALSHA", sha, "1", "tollgate:v2:{bench:%012d}:token-bucket" % i] + argv
    out.write(b"*%d\r\n" % len(parts) + b"".join(bulk(p) for p in parts))
EOF
      if [ -z "${filled[redis-benchmark]:-}" ]; then
        cli --pipe < "$work/fill.resp" > /dev/null
        filled[redis-benchmark]=yes
      fi ;;
    hot-key) key=$hot_key; argv=("${allowing_argv[@]}") ;;
    hot-key-refused) key=$refused_key; argv=("${refusing_argv[@]}") ;;
  esac
  echo "## $(date -u +%H:%M:%S) redis-benchmark $workload threads=$threads" >> "$raw"
  # A short run first, as warm-up and to size the measured run to about DURATION seconds.
  local warm=$((threads * 200 > 2000 ? threads * 200 : 2000))
  local rps
  rps=$("${client_pin[@]}" redis-benchmark -h 127.0.0.1 -p "$client_port" -c "$threads" -n "$warm" "${random[@]}" --csv \
    EVALSHA "$sha" 1 "$key" "${argv[@]}" | tail -1 | python3 -c 'import csv, sys; print(next(csv.reader(sys.stdin))[1])')
  local n
  n=$(python3 -c "print(max(1000, int(float('$rps') * float('$WARMUP') )))")
  "${client_pin[@]}" redis-benchmark -h 127.0.0.1 -p "$client_port" -c "$threads" -n "$n" "${random[@]}" -q \
    EVALSHA "$sha" 1 "$key" "${argv[@]}" > /dev/null
  n=$(python3 -c "print(max(1000, int(float('$rps') * float('$DURATION'))))")
  cli config resetstat > /dev/null
  cli info cpu > "$work/cpu-before.txt"
  /usr/bin/time -f '%U %S' -o "$work/time.txt" \
    "${client_pin[@]}" redis-benchmark -h 127.0.0.1 -p "$client_port" -c "$threads" -n "$n" "${random[@]}" --csv \
    EVALSHA "$sha" 1 "$key" "${argv[@]}" > "$work/rb.csv"
  cli info cpu > "$work/cpu-after.txt"
  cli info commandstats > "$work/stats.txt"
  cat "$work/rb.csv" "$work/stats.txt" "$work/time.txt" >> "$raw"
  python3 - "$work" "$workload" "$threads" "$keys" "$n" "$round" <<'EOF' | tee -a "$runs"
import csv, re, sys
work, workload, threads, keys, n, rnd = sys.argv[1:]
row = list(csv.reader(open(f"{work}/rb.csv")))[-1]
rps, p50, p99 = float(row[1]), row[4], row[6]
calls = {m[0]: (int(m[1]), int(m[2])) for m in
         re.findall(r"cmdstat_(\w+):calls=(\d+),.*failed_calls=(\d+)", open(f"{work}/stats.txt").read())}
def server_cpu(path):
    text = open(path).read()
    return sum(float(re.search(rf"^{f}:([0-9.]+)", text, re.M).group(1)) for f in ("used_cpu_user", "used_cpu_sys"))
server = server_cpu(f"{work}/cpu-after.txt") - server_cpu(f"{work}/cpu-before.txt")
client = sum(float(x) for x in open(f"{work}/time.txt").read().split()[-2:])
evalsha, failed = calls.get("evalsha", (0, 0))
if failed:
    sys.exit(f"run-redis.sh: {failed} of redis-benchmark's EVALSHA calls failed")
n = int(n)
print(f"RESULT side=redis-benchmark workload={workload} threads={threads} keys={keys} seconds={n / rps:.3f}"
      f" decisions={n} per_second={round(rps)} failed={failed}"
      f" round_trips_per_decision={evalsha / n:.4f} evalsha_per_decision={evalsha / n:.4f}"
      f" hset_per_decision={calls.get('hset', (0, 0))[0] / n:.4f}"
      f" client_cpu_us_per_decision={client * 1e6 / n:.2f} server_cpu_us_per_decision={server * 1e6 / n:.2f}"
      f" p50_ms={p50} p99_ms={p99} round={rnd}")
EOF
}

# Each side has its own keys (Tollgate: tollgate:v2:{bench:DIGEST}:token-bucket, redis-benchmark:
# tollgate:v2:{bench:NNNNNNNNNNNN}:token-bucket, Bucket4j: bucket4j:bench:client-N), so the sides do not see each
# other's buckets. Redis is emptied before each workload of each round; the first run of a side in
# a many-keys workload fills its keys, the later ones find them (they live 1,000 s).
sides=(tollgate redis-benchmark bucket4j)
declare -A filled
start_java tollgate
start_java bucket4j
# Before the first measurement, each JVM runs its side for JIT_WARMUP seconds (not recorded as a
# result; kept in redis-raw.txt).
for side in tollgate bucket4j; do
  round=0
  tollgate_or_bucket4j "$side" hot-key 8 "warmup=$JIT_WARMUP duration=1"
  filled=()
done
for round in $(seq "$ROUNDS"); do
  for workload in $WORKLOADS; do
    cli flushall > /dev/null
    filled=()
    for threads in $THREADS; do
      # Rotate the order from round to round, so that no side always runs first.
      for i in 0 1 2; do
        side=${sides[$(((i + round - 1) % 3))]}
        if [ "$side" = redis-benchmark ]; then
          redis_benchmark "$workload" "$threads"
        else
          tollgate_or_bucket4j "$side" "$workload" "$threads"
        fi
      done
    done
  done
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%H:%M:%S') UTC" | tee -a "$runs" >> "$raw"
python3 benchmarks/redis-table.py "$runs" | tee "$out/$NAME-summary.txt"
