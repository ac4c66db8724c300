#!/usr/bin/env bash
[ -e /tmp/reconnect/STOP ] && { echo "$1 skipped"; exit 0; }
# One pass of run-redis-faults.sh ROUNDS=drop beside LOOPS busy loops (started here, killed by pid).
# usage: bench.sh NAME AGENT [AGENT_OPTS]
set -u
cd /tmp/reconnect/root
name=$1; agent=$2; opts=${3:-}
LOOPS=${LOOPS:-4}
loops=()
for i in $(seq 1 "$LOOPS"); do (while :; do :; done) & loops+=($!); done
TRACE=1 ROUNDS="${ROUNDS:-drop}" DROP_EVERY="${DROP_EVERY:-1}" NAME=reconnect/$name AGENT=$agent AGENT_OPTS="$opts" benchmarks/run-redis-faults.sh > /tmp/reconnect/$name.out 2>&1
rc=$?
for p in "${loops[@]}"; do kill "$p" 2>/dev/null; done
for p in "${loops[@]}"; do wait "$p" 2>/dev/null; done
echo "$name rc=$rc $(cut -d' ' -f1-3 /proc/loadavg)"
