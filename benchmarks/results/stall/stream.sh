#!/usr/bin/env bash
# The fix (h-stall) and main (f2368a0) alternated pass by pass, the order flipped each pair, JVM 3 under
# a CPU quota (QUOTA3; "none": unthrottled), a call per decision, TRACE=1; run from a copy (/tmp/stall-bench)
# so that rebuilding the worktree cannot touch a running pass; stops starting passes at STOP_AT.
# FIX_JAR: the fix's jar (/tmp/stall-agent-fix.jar unless told).
# Usage: LIMIT=1000 QUOTA=20/1000 ROUNDS=reload-deny TAG=A START=1 END=40 STOP_AT=02:30 stream.sh
cd /tmp/stall-bench
R=${ROUNDS:-reload-deny}; TAG=${TAG:-A}; STOP_AT=${STOP_AT:-02:30}; Q=${QUOTA:-20/1000}
q3=$Q; [ "$Q" = none ] && q3=
for i in $(seq ${START:-1} ${END:-40}); do
  if (( i % 2 )); then order="fix main"; else order="main fix"; fi
  for jar in $order; do
    if [[ "$(date -u +%H:%M)" > "$STOP_AT" || "$(date -u +%H:%M)" == "$STOP_AT" ]]; then
      echo "$(date -u +%T) stop: $STOP_AT"; exit 0
    fi
    n=$TAG-$jar-$i
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $n"
    QUOTA3=$q3 ROUNDS=$R TRACE=1 AGENT=$([ $jar = fix ] && echo ${FIX_JAR:-/tmp/stall-agent-fix.jar} || echo /tmp/stall-agent-main.jar) AGENT_OPTS=-Dtollgate.redis.batch=false \
      NAME=stall/$n benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $n rc=$?"
    echo "$(date -u +%T) $n $(grep '^RESULT\|^QUOTA' benchmarks/results/stall/$n.txt | cut -c1-150 | tr '\n' ' ')"
    grep -H "late-bets\|instances share\|WARN\|reloaded" benchmarks/results/stall/$n-logs/*.log > benchmarks/results/stall/$n-bets.log 2>/dev/null
    for log in benchmarks/results/stall/$n-logs/*.log; do
      grep -H "path-trace" "$log" | tail -1 >> benchmarks/results/stall/$n-bets.log
    done
    rm -rf benchmarks/results/stall/$n-logs
  done
done
