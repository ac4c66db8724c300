#!/usr/bin/env bash
# reload-deny (or ROUNDS) on main's jar with JVM 3 under a CPU quota (QUOTA3), the settings in turn pass by pass,
# a call per decision, TRACE=1; run from a copy (/tmp/quota-bench) so that rebuilding the worktree cannot touch a
# running pass. Usage: SETTINGS="100/1000 200/1000" ROUNDS=reload-deny TAG=Q START=1 END=20 STOP_AT=23:35 stream.sh
cd /tmp/quota-bench
R=${ROUNDS:-reload-deny}; TAG=${TAG:-Q}; STOP_AT=${STOP_AT:-23:35}
for i in $(seq ${START:-1} ${END:-20}); do
  for q in ${SETTINGS:-100/1000 200/1000 50/500 300/1000}; do
    if [[ "$(date -u +%H:%M)" > "$STOP_AT" || "$(date -u +%H:%M)" == "$STOP_AT" ]]; then
      echo "$(date -u +%T) stop: $STOP_AT"; exit 0
    fi
    n=$TAG-${q/\//of}-$i
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $n"
    q3=$q; [ "$q" = none ] && q3=   # none: a control, JVM 3 unthrottled
    QUOTA3=$q3 QUOTA3_FOR=${FOR:-} ROUNDS=$R TRACE=1 AGENT=/tmp/quota-agent-main.jar AGENT_OPTS=-Dtollgate.redis.batch=false \
      NAME=quota/$n benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $n rc=$?"
    echo "$(date -u +%T) $n $(grep '^RESULT\|^QUOTA' benchmarks/results/quota/$n.txt | cut -c1-150 | tr '\n' ' ')"
    grep -H "late-bets\|instances share\|WARN\|reloaded" benchmarks/results/quota/$n-logs/*.log > benchmarks/results/quota/$n-bets.log 2>/dev/null
    rm -rf benchmarks/results/quota/$n-logs
  done
done
