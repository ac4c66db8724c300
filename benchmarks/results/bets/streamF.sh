#!/usr/bin/env bash
# fix and main alternating, a call per decision, reload-deny; ORDER flips the first
cd /tmp/bets-bench
FIX=/tmp/bets-agent-fix.jar; MAIN=/tmp/bets-agent-da47f3f.jar
for i in $(seq ${START:-1} ${END:-20}); do
  if [ $(( (i + ${FLIP:-0}) % 2 )) -eq 0 ]; then order="fix main"; else order="main fix"; fi
  for which in $order; do
    [ $which = fix ] && J=$FIX || J=$MAIN
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $which $i"
    ROUNDS="${ROUNDS:-reload-deny}" AGENT=$J TRACE=1 AGENT_OPTS=-Dtollgate.redis.batch=true NAME=bets/F-batched-$which-$i \
      benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $which $i rc=$?"
    echo "$(date -u +%T) $which $i $(grep ^RESULT benchmarks/results/bets/F-batched-$which-$i.txt | cut -c1-140)"
  done
done
