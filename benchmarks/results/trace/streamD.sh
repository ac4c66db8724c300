#!/usr/bin/env bash
# fix and main (main's decisions with h-trace's trace lines) alternating, a call per decision, TRACE=1
cd /tmp/trace-bench
FIX=/tmp/trace-agent-fix.jar; MAIN=/tmp/trace-agent-trace.jar; R=${ROUNDS:-reload-deny}; TAG=${TAG:-D}
for i in $(seq ${START:-1} ${END:-20}); do
  if [ $(( (i + ${FLIP:-0}) % 2 )) -eq 0 ]; then order="fix main"; else order="main fix"; fi
  for which in $order; do
    [ $which = fix ] && J=$FIX || J=$MAIN
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $which $i"
    ROUNDS=$R TRACE=1 AGENT=$J AGENT_OPTS=-Dtollgate.redis.batch=false NAME=trace/$TAG-$which-$i \
      benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $which $i rc=$?"
    echo "$(date -u +%T) $which $i $(grep ^RESULT benchmarks/results/trace/$TAG-$which-$i.txt | cut -c1-120)"
    grep -H "late-bets\|instances share\|WARN\|reloaded" benchmarks/results/trace/$TAG-$which-$i-logs/*.log > benchmarks/results/trace/$TAG-$which-$i-bets.log 2>/dev/null
    rm -rf benchmarks/results/trace/$TAG-$which-$i-logs
  done
done
