#!/usr/bin/env bash
# The token bucket's script before h-lua (4d18742, from its benchmarks jar) and after (this build's
# benchmarks jar), inside Redis, interleaved: INFO commandstats' usec_per_call of evalsha over
# redis-benchmark -c 4 -n 30000, CONFIG RESETSTAT before each run, the two scripts in turn PAIRS
# times per workload, each with the EVALSHA arguments its agent sends (evalsha-sent.txt before,
# evalsha-sent-h-lua.txt after: the same plus p, the parameters' fingerprint, at the end):
#   many      10,000 random keys, 10M a second (a key found behind now: a full bucket), allowed
#   hot       one key, the same rule (tat ahead of now)
#   refused   one key, 1 an hour: refused (after the first)
#   3-limits  10,000 random keys, a rule of three limits (budgets.lua's loop over three budgets)
# usage (in this folder, after mvn package; a redis-server of your own on PORT):
#   PORT=16931 BEFORE_JAR=/work/baseline/benchmarks-4d18742.jar ./compare-h-lua.sh [PAIRS]
set -euo pipefail
cd "$(dirname "$0")"
PORT=${PORT:?a redis-server of your own}; PAIRS=${1:-6}
BEFORE_JAR=${BEFORE_JAR:?the benchmarks jar of 4d18742}
java -cp "$BEFORE_JAR" io.tollgate.benchmarks.RedisThroughputDriver side=script > before.lua
java -cp ../../target/benchmarks.jar io.tollgate.benchmarks.RedisThroughputDriver side=script > after.lua
A=(10000000 10000000 1000 100 0 1000000000 0 0 10000000 1000001 1000000000 10000001 caller1)
P=1000:1000000000:10000000:1000000000:0
R=(1 1 1 3600000000000 0 3600000000000 0 0 1 3600001 3600000000000 2 caller1)
RP=1:3600000000000:1:3600000000000:0
run() { # label script key args...
  local label=$1 f=$2 key=$3; shift 3
  local s; s=$(redis-cli -p "$PORT" -x script load < "$f")
  redis-cli -p "$PORT" config resetstat >/dev/null
  redis-benchmark -p "$PORT" -c 4 -n 30000 -r 10000 -q EVALSHA "$s" 1 "$key" "$@" >/dev/null 2>&1
  echo "$label $(redis-cli -p "$PORT" info commandstats | grep '^cmdstat_evalsha' | grep -o 'usec_per_call=[0-9.]*' | cut -d= -f2)"
}
for i in $(seq "$PAIRS"); do
  run many-before before.lua 'tollgate:v2:{bench:__rand_int__}:token-bucket' decide "" 1 1 "" 13 "${A[@]}"
  run many-after after.lua 'tollgate:v2:{bench:__rand_int__}:token-bucket' decide "" 1 1 "" 14 "${A[@]}" $P
  run hot-before before.lua 'tollgate:v2:{bench:hot}:token-bucket' decide "" 1 1 "" 13 "${A[@]}"
  run hot-after after.lua 'tollgate:v2:{bench:hot}:token-bucket' decide "" 1 1 "" 14 "${A[@]}" $P
  run refused-before before.lua 'tollgate:v2:{refuse:x}:token-bucket' decide "" 1 1 "" 13 "${R[@]}"
  run refused-after after.lua 'tollgate:v2:{refuse:x}:token-bucket' decide "" 1 1 "" 14 "${R[@]}" $RP
  run 3-limits-before before.lua 'tollgate:v2:{three:__rand_int__}:token-bucket' decide "" 1 3 \
    :a 13 "${A[@]}" :b 13 "${A[@]}" :c 13 "${A[@]}"
  run 3-limits-after after.lua 'tollgate:v2:{three:__rand_int__}:token-bucket' decide "" 1 3 \
    :a 14 "${A[@]}" $P :b 14 "${A[@]}" $P :c 14 "${A[@]}" $P
done | tee compare-h-lua.out
python3 - <<'PY'
import collections, statistics
runs = collections.defaultdict(list)
for line in open('compare-h-lua.out'):
    label, us = line.split(); runs[label].append(float(us))
print('| workload | before, µs per call (median) | after | after / before | runs, before | runs, after |')
print('|---|---|---|---|---|---|')
for w in ['many', 'hot', 'refused', '3-limits']:
    b, a = runs[w + '-before'], runs[w + '-after']
    if b and a:
        mb, ma = statistics.median(b), statistics.median(a)
        print(f'| {w} | {mb:.2f} | {ma:.2f} | {ma / mb:.2f} | {" ".join(f"{x:.1f}" for x in b)} | {" ".join(f"{x:.1f}" for x in a)} |')
PY
