#!/usr/bin/env bash
# fix (h-silent) and main (6a12f35, the session's start) alternating pass by pass, order flipped each
# pass, a call per decision, TRACE=1; run from a copy (/tmp/silent-bench) so that rebuilding the
# worktree cannot touch a running pass. Usage: ROUNDS=reload-deny TAG=D START=1 END=20 FLIP=0 stream.sh
cd /tmp/silent-bench
FIX=/tmp/silent-agent-fix.jar; MAIN=/tmp/silent-agent-main.jar; R=${ROUNDS:-reload-deny}; TAG=${TAG:-D}
STOP_AT=${STOP_AT:-22:40}
for i in $(seq ${START:-1} ${END:-20}); do
  if [ $(( (i + ${FLIP:-0}) % 2 )) -eq 0 ]; then order="fix main"; else order="main fix"; fi
  for which in $order; do
    if [[ "$(date -u +%H:%M)" > "$STOP_AT" || "$(date -u +%H:%M)" == "$STOP_AT" ]]; then
      echo "$(date -u +%T) stop: $STOP_AT"; exit 0
    fi
    [ $which = fix ] && J=$FIX || J=$MAIN
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $which $i"
    ROUNDS=$R TRACE=1 AGENT=$J AGENT_OPTS=-Dtollgate.redis.batch=false NAME=silent/$TAG-$which-$i \
      benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $which $i rc=$?"
    echo "$(date -u +%T) $which $i $(grep ^RESULT benchmarks/results/silent/$TAG-$which-$i.txt | cut -c1-120)"
    grep -H "late-bets\|instances share\|WARN\|reloaded" benchmarks/results/silent/$TAG-$which-$i-logs/*.log > benchmarks/results/silent/$TAG-$which-$i-bets.log 2>/dev/null
    rm -rf benchmarks/results/silent/$TAG-$which-$i-logs
  done
done
