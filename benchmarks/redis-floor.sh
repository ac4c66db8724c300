#!/usr/bin/env bash
# The floor under Redis mode (BENCHMARKS.md section 3): one caller thread making decisions on one
# hot key, alternately on a plain blocking socket (the request thread writes the EVALSHA Tollgate
# sends and reads the reply itself) and through Tollgate's RedisGcraStore on its Lettuce client,
# in one JVM pinned to CPU 0, with a redis-server of its own on CPU 1 (port REDIS_PORT, ended by
# its pid). Per decision: wall time, the JVM's CPU time and its context switches
# (RedisRoundTripFloor). The socket side is what any Java client pays for the round trip on this
# machine; the rest of the Tollgate side is the client library and its hand-offs.
# Needs the benchmarks jar (mvn -B package -DskipTests) and redis-server on the PATH.
# env: ROUNDS=3 SECONDS_PER_SIDE=5 WARMUP=5 REDIS_PORT=16497 CLIENT_CPU=0 REDIS_CPU=1
#      OUT=benchmarks/results/redis-floor.txt
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}; SECONDS_PER_SIDE=${SECONDS_PER_SIDE:-5}; WARMUP=${WARMUP:-5}
REDIS_PORT=${REDIS_PORT:-16497}; CLIENT_CPU=${CLIENT_CPU:-0}; REDIS_CPU=${REDIS_CPU:-1}
OUT=${OUT:-benchmarks/results/redis-floor.txt}
jar=benchmarks/target/benchmarks.jar
taskset -c "$REDIS_CPU" redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize no >/dev/null 2>&1 &
redis_pid=$!
trap 'kill $redis_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
{
  echo "# redis-floor.sh $(date -u '+%F %T') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg); JVM on CPU $CLIENT_CPU, redis-server on CPU $REDIS_CPU; $(java -version 2>&1 | head -1); $(redis-server --version)"
  taskset -c "$CLIENT_CPU" java -Xms256m -Xmx256m -cp "$jar" io.tollgate.benchmarks.RedisRoundTripFloor \
    port="$REDIS_PORT" rounds="$ROUNDS" seconds="$SECONDS_PER_SIDE" warmup="$WARMUP" 2>&1
  echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT"
