#!/usr/bin/env bash
# the fix, a call per decision, TRACE=1: what a pass over the limit was made of
cd /tmp/bets-bench
for i in $(seq ${START:-1} ${END:-6}); do
  echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $i"
  ROUNDS=reload-deny TRACE=1 AGENT=/tmp/bets-agent-fix.jar AGENT_OPTS=-Dtollgate.redis.batch=false NAME=bets/G-fix-trace-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $i rc=$?"
  echo "$(date -u +%T) $i $(grep ^RESULT benchmarks/results/bets/G-fix-trace-$i.txt | cut -c1-140)"
done
