#!/usr/bin/env bash
# Round trips per decision of a rule of three limits (BENCHMARKS.md, section 4): the driver's
# tollgate-3-limits side (one RedisBudgetGroup of three token buckets, decided in one EVALSHA)
# beside the tollgate side (one limit), on each workload at 1, 8 and 32 threads. EVALSHA per
# decision is exact (INFO commandstats around the measured phase); the throughput and CPU figures
# are for orientation only on a shared machine.
#
# Needs redis-server on the PATH and the benchmarks jar (mvn -B package -DskipTests). Starts its own
# redis-server on a free loopback port, persistence off, and stops it (by its pid) at the end.
# Output: benchmarks/results/redis-3-limits.txt (one RESULT line per measurement).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results/redis-3-limits.txt
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no > /dev/null 2>&1 &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null || true' EXIT
sleep 1
: > "$out"
for side in tollgate-3-limits tollgate; do
  for workload in many-keys hot-key hot-key-refused; do
    for threads in 1 8 32; do
      java -cp "$jar" io.tollgate.benchmarks.RedisThroughputDriver side="$side" workload="$workload" \
        threads="$threads" warmup=2 duration=4 keys=20000 uri="redis://127.0.0.1:$port" 2>&1 \
        | grep '^RESULT' | tee -a "$out"
    done
  done
done
