#!/usr/bin/env bash
# Step 1 of h-batch: what several token-bucket decisions in one EVALSHA cost Redis per DECISION,
# before any agent change. The scripts are assembled here as RedisScript does (common.lua, gcra.lua
# as decide_budget, budgets.lua: the script the agent sends today; and, for the batch, budgets.lua
# made decide_rule and batch.lua after it). redis-benchmark -c 4 on 10,000 random keys, each
# decision the arguments the agent sends (../redis-script-cost/evalsha-sent-h-lua.txt); N = 1, 2,
# 4, 8 decisions per call, each on its own random key; the single script (N=1, as today) in the
# same rounds. Per run: INFO commandstats' usec_per_call of evalsha, and redis-server's whole CPU
# (utime + stime from /proc, so the socket reads, parsing and replies too) per call and per decision.
# usage: PORT=16941 ./batch-cost.sh [ROUNDS]   (starts and stops its own redis-server on PORT)
set -euo pipefail
cd "$(dirname "$0")"
PORT=${PORT:?a free port}; ROUNDS=${1:-3}; REQ=${REQ:-30000}
R=../../../agent/src/main/resources/io/tollgate/stores/redis
{ cat $R/common.lua; printf '\nlocal function decide_budget(KEYS, ARGV)\n'; cat $R/gcra.lua; printf '\nend\n'; cat $R/budgets.lua; } > single.lua
{ cat $R/common.lua; printf '\nlocal function decide_budget(KEYS, ARGV)\n'; cat $R/gcra.lua; printf '\nend\n'
  printf 'local function decide_rule(KEYS, ARGV)\n'; cat $R/budgets.lua; printf '\nend\n'
  cat $R/batch.lua; } > batch.lua
python3 make-variants.py
redis-server --port "$PORT" --save '' --appendonly no --daemonize no > redis.log 2>&1 &
RPID=$!
trap 'kill $RPID' EXIT
until redis-cli -p "$PORT" ping >/dev/null 2>&1; do sleep 0.1; done
CLK=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' /proc/$RPID/stat; }
A=(10000000 10000000 1000 100 0 1000000000 0 0 10000000 1000001 1000000000 10000001 caller1)
P=1000:1000000000:10000000:1000000000:0
ONE=(decide "" 1 1 "" 14 "${A[@]}" $P)   # one decision's ARGV, as budgets.lua reads it (20)
SINGLE=$(redis-cli -p "$PORT" -x script load < single.lua)
BATCH=$(redis-cli -p "$PORT" -x script load < batch.lua)
# VARIANTS="nopcall hoist" (make-variants.py's files) run beside batch.lua at N = 4 and 8
VARIANTS=${VARIANTS:-}
declare -A VSHA; for v in $VARIANTS; do VSHA[$v]=$(redis-cli -p "$PORT" -x script load < $v.lua); done
run() { # label calls sha numkeys args...
  local label=$1 n=$2; shift 2
  redis-cli -p "$PORT" config resetstat >/dev/null
  local c0; c0=$(cpu)
  redis-benchmark -p "$PORT" -c 4 -n "$REQ" -r 10000 -q "$@" >/dev/null 2>&1
  local c1; c1=$(cpu)
  local us; us=$(redis-cli -p "$PORT" info commandstats | grep '^cmdstat_evalsha' | grep -o 'usec_per_call=[0-9.]*' | cut -d= -f2)
  local calls; calls=$(redis-cli -p "$PORT" info commandstats | grep '^cmdstat_evalsha' | grep -o '[:,]calls=[0-9]*' | cut -d= -f2)
  echo "$label n=$n evalsha_us_per_call=$us cpu_us_per_call=$(python3 -c "print(round(($c1-$c0)/$CLK*1e6/$calls,2))") calls=$calls"
}
# redis-cli answers the check below with each decision's reply: one batch of 2 on the same key
redis-cli -p "$PORT" evalsha "$BATCH" 2 'tollgate:v2:{check}:token-bucket' 'tollgate:v2:{check}:token-bucket' 20 "${ONE[@]}" 20 "${ONE[@]}" | tr '\n' ' ' > check.out; echo >> check.out
for r in $(seq "$ROUNDS"); do
  run single 1 EVALSHA "$SINGLE" 1 'tollgate:v2:{bench:__rand_int__}:token-bucket' "${ONE[@]}"
  for n in 1 2 4 8; do
    keys=(); args=()
    for i in $(seq $n); do keys+=("tollgate:v2:{bench:__rand_int__}:token-bucket"); args+=(20 "${ONE[@]}"); done
    run batch "$n" EVALSHA "$BATCH" "$n" "${keys[@]}" "${args[@]}"
    if [ "$n" -ge 4 ]; then for v in $VARIANTS; do run "$v" "$n" EVALSHA "${VSHA[$v]}" "$n" "${keys[@]}" "${args[@]}"; done; fi
  done
done | tee ${OUT:-batch-cost.out}
python3 - <<'PY'
import collections, statistics, re
runs = collections.defaultdict(lambda: ([], []))
for line in open(__import__('os').environ.get('OUT', 'batch-cost.out')):
    f = dict(kv.split('=') for kv in line.split()[1:])
    label = line.split()[0] + ' ' + f['n']
    n = int(f['n'])
    runs[label][0].append(float(f['evalsha_us_per_call']) / n)
    runs[label][1].append(float(f['cpu_us_per_call']) / n)
print('| script, decisions per call | evalsha µs per decision (median) | redis-server CPU µs per decision (median) | runs (CPU) |')
print('|---|---|---|---|')
for label, (e, c) in runs.items():
    print(f'| {label} | {statistics.median(e):.2f} | {statistics.median(c):.2f} | {" ".join(f"{x:.1f}" for x in c)} |')
PY
