#!/usr/bin/env bash
[ -e /tmp/reconnect2/STOP ] && { echo "$1 skipped"; exit 0; }
# One pass of run-redis-faults.sh beside LOOPS busy loops (started here, killed by pid).
# usage: bench.sh NAME AGENT [AGENT_OPTS]   (ROUNDS, DROP_EVERY, LOOPS from the environment)
set -u
cd /tmp/reconnect2/root
name=$1; agent=$2; opts=${3:-}
LOOPS=${LOOPS:-8}
loops=()
for i in $(seq 1 "$LOOPS"); do (while :; do :; done) & loops+=($!); done
sleep 5  # let the load rise before the pass's first line reads it
TRACE=1 ROUNDS="${ROUNDS:-drop}" DROP_EVERY="${DROP_EVERY:-1}" NAME=reconnect2/$name AGENT=$agent AGENT_OPTS="$opts" benchmarks/run-redis-faults.sh > /tmp/reconnect2/$name.out 2>&1
rc=$?
for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
for p in "${loops[@]}"; do wait "$p" 2>/dev/null; done
echo "$name rc=$rc $(date +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"
